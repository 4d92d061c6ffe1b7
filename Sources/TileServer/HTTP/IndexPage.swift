/// The front page: every layer with its zoom range, attribution and TileJSON link.
enum IndexPage {
    static func html(layers: [Layer]) -> String {
        var rows = ""
        for layer in layers {
            let name = escape(layer.name)
            let attribution = escape(layer.settings.attribution ?? "")
            rows += "<tr><td><b>\(name)</b>\(layer.settings.isDefault ? " (default)" : "")</td>"
                + "<td>\(layer.minZoom)–\(layer.maxZoom)</td><td>\(attribution)</td>"
                + "<td><a href=\"/\(name).json\">TileJSON</a></td>"
                + "<td><a href=\"/\(name)/0/0/0.png\">/\(name)/{z}/{x}/{y}.png</a></td></tr>\n"
        }
        return """
        <!doctype html>
        <html lang="en"><head><meta charset="utf-8"><title>tilelayer</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>body{font:15px system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse}
        td,th{padding:.4em .8em;border-bottom:1px solid #ddd;text-align:left}</style></head>
        <body><h1>tilelayer</h1>
        <table><tr><th>Layer</th><th>Zoom</th><th>Attribution</th><th>Metadata</th><th>Tiles</th></tr>
        \(rows)</table>
        <p><a href="/index.json">index.json</a> · <a href="/healthz">healthz</a></p>
        </body></html>

        """
    }

    /// HTML-escapes text for element content and attribute values.
    static func escape(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&#39;"
            default: out.append(character)
            }
        }
        return out
    }
}
