// The front page (`GET /`): a card per layer with its facts and a live Leaflet map, or a still
// tile when Leaflet is not installed. Self-contained: every URL it loads is on this server.

/// The HTML of the front page.
enum IndexPage {
    /// The page for `previews`; `baseURL` makes the copyable tile URLs absolute, `leaflet` says
    /// whether `/assets/leaflet/` can serve Leaflet (else each card shows a still tile).
    static func html(_ previews: [LayerPreview], baseURL: String, leaflet: Bool) -> String {
        let cards = previews.map { card($0, baseURL: baseURL, leaflet: leaflet) }.joined(separator: "\n")
        let count = previews.count == 1 ? "1 layer" : "\(previews.count) layers"
        let leafletHead = leaflet ? "<link rel=\"stylesheet\" href=\"/assets/leaflet/leaflet.css\">\n" : ""
        let leafletScript = leaflet ? "<script src=\"/assets/leaflet/leaflet.js\"></script>\n" : ""
        let note = leaflet
            ? "Maps drawn with Leaflet, served by tilelayer itself. Retina screens get <code>@2x</code> tiles."
            : "Live maps need Leaflet: install Debian's <code>libjs-leaflet</code> and restart. Showing one tile per layer."
        let empty = previews.isEmpty ? "<p class=\"empty\">No layers are configured.</p>\n" : ""
        return """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <title>tilelayer · \(count)</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <link rel="icon" href="data:,">
        \(leafletHead)<style>
        \(style)</style>
        </head>
        <body>
        <header class="top">
        <div class="brand"><span class="logo" aria-hidden="true"></span><h1>tilelayer</h1></div>
        <nav><span>\(count)</span><a href="/index.json">index.json</a><a href="\(LayerPreview.wmtsCapabilitiesPath)">WMTS</a><a href="/ogc">OGC API</a><a href="/healthz">healthz</a></nav>
        </header>
        <main>
        \(empty)<div class="grid">
        \(cards)
        </div>
        </main>
        <footer class="bottom">\(note)</footer>
        \(leafletScript)<script>
        \(script)</script>
        </body>
        </html>

        """
    }
}
