extension IndexPage {
    /// The page's stylesheet: system fonts only (no web fonts), light and dark.
    static let style = #"""
    :root{--bg:#f4f5f7;--card:#fff;--ink:#1d2430;--muted:#5f6b7a;--line:#e3e6ea;--accent:#2563eb;
    --accent-soft:#e8efff;--ok:#0f7b4f;--ok-soft:#e3f5ec;color-scheme:light dark}
    @media (prefers-color-scheme:dark){:root{--bg:#12161c;--card:#1b2129;--ink:#e6e9ee;--muted:#9aa5b3;
    --line:#2c3440;--accent:#7aa7ff;--accent-soft:#1f2c45;--ok:#5fd39b;--ok-soft:#17332a}}
    *{box-sizing:border-box}
    body{margin:0;background:var(--bg);color:var(--ink);
    font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"Noto Sans","DejaVu Sans",sans-serif}
    a{color:var(--accent);text-decoration:none}a:hover{text-decoration:underline}
    code{font:13px/1.35 ui-monospace,"SFMono-Regular",Menlo,Consolas,"DejaVu Sans Mono",monospace}
    .top{display:flex;align-items:center;justify-content:space-between;gap:1em;flex-wrap:wrap;
    padding:14px 28px;background:var(--card);border-bottom:1px solid var(--line)}
    .brand{display:flex;align-items:center;gap:10px}
    .brand h1{font-size:20px;margin:0;letter-spacing:.01em}
    .logo{width:22px;height:22px;border-radius:5px;display:inline-block;
    background:conic-gradient(var(--accent) 0 25%,#7fb2ff 0 50%,var(--accent) 0 75%,#7fb2ff 0)}
    nav{display:flex;gap:18px;align-items:center;color:var(--muted)}
    main{padding:24px 28px}
    .grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(380px,1fr));gap:22px}
    .card{background:var(--card);border:1px solid var(--line);border-radius:12px;overflow:hidden;
    display:flex;flex-direction:column;box-shadow:0 1px 2px rgba(16,24,40,.05),0 2px 8px rgba(16,24,40,.04)}
    .card>header{display:flex;align-items:center;gap:8px;flex-wrap:wrap;padding:12px 16px}
    .card h2{font-size:17px;margin:0 auto 0 0;font-family:ui-monospace,Menlo,Consolas,"DejaVu Sans Mono",monospace}
    .badge{font-size:12px;padding:2px 9px;border-radius:999px;background:var(--accent-soft);color:var(--accent);white-space:nowrap}
    .badge.default{background:var(--ok-soft);color:var(--ok);font-weight:600}
    .preview{height:280px;background:#dfe3e8;border-top:1px solid var(--line);border-bottom:1px solid var(--line)}
    .preview.still{display:flex;align-items:center;justify-content:center;
    background:repeating-conic-gradient(#e9ecef 0 25%,#f7f8f9 0 50%) 0 0/16px 16px}
    .preview.still img{max-height:256px;box-shadow:0 1px 4px rgba(0,0,0,.25)}
    .leaflet-container{font:inherit;font-size:12px}
    .preview-wrap{position:relative}
    .variables{position:absolute;top:10px;right:10px;z-index:1001;display:flex;gap:10px;padding:5px 9px;
    background:var(--card);color:var(--ink);border-radius:8px;font-size:13px;box-shadow:0 1px 5px rgba(0,0,0,.3)}
    .variables select,.variables input{font:inherit;padding:1px 4px;border:1px solid var(--line);border-radius:5px;
    background:var(--card);color:var(--ink)}
    .description{margin:10px 16px 0;color:var(--muted)}
    dl{display:grid;grid-template-columns:max-content 1fr;gap:6px 14px;margin:12px 16px;font-size:14px}
    dt{color:var(--muted)}dd{margin:0;min-width:0}
    .copy-row{display:flex;gap:6px;align-items:flex-start}
    code.template{flex:1;min-width:0;padding:4px 7px;border:1px solid var(--line);border-radius:6px;
    background:var(--bg);color:var(--ink);overflow-wrap:anywhere;user-select:all}
    button.copy{font:inherit;font-size:13px;padding:3px 10px;border-radius:6px;border:1px solid var(--accent);
    background:var(--accent);color:#fff;cursor:pointer}
    button.copy.done{background:var(--ok);border-color:var(--ok)}
    .hint{display:block;color:var(--muted);font-size:12px;margin-top:3px}
    .wmts code,.ogc-api code{overflow-wrap:anywhere}
    .card>footer{margin-top:auto;display:flex;gap:16px;padding:10px 16px;border-top:1px solid var(--line);font-size:14px}
    .bottom{padding:8px 28px 28px;color:var(--muted);font-size:13px}
    .empty{color:var(--muted)}
    #status{margin:0 28px 28px;padding:8px 10px;background:var(--card);border:1px solid var(--line);border-radius:8px;
    font-size:12px;white-space:pre-wrap;overflow-wrap:anywhere}
    """#
}
