import TileProviders

extension IndexPage {
    /// One layer's card: title and badges, the preview, variable selectors and the facts.
    static func card(_ layer: LayerPreview, baseURL: String, leaflet: Bool) -> String {
        let name = HTML.escape(layer.name)
        var badges = ""
        if layer.isDefault {
            badges += "<span class=\"badge default\" title=\"also served at /{z}/{x}/{y}\(layer.fileExtension)\">default</span>"
        }
        badges += "<span class=\"badge kind\">\(HTML.escape(layer.sourceKind))</span>"
        let template = HTML.escape(baseURL + layer.tileTemplate)
        let query = HTML.escape(layer.defaultQuery)
        var facts = "<dt>Zoom</dt><dd>\(layer.minZoom)–\(layer.maxZoom)</dd>\n"
        facts += "<dt>Bounds</dt><dd class=\"bounds\">\(boundsText(layer))</dd>\n"
        facts += "<dt>Tiles</dt><dd><div class=\"copy-row\"><code class=\"template\" data-base=\"\(template)\">"
            + "\(template)\(query)</code><button type=\"button\" class=\"copy\" title=\"copy the tile URL template\">Copy</button></div>"
            + tileHint(layer) + "</dd>\n"
        facts += ogcFacts(layer, baseURL: baseURL)
        if let attribution = layer.attribution {
            facts += "<dt>Attribution</dt><dd class=\"attribution\">\(HTML.escape(attribution))</dd>\n"
        }
        let description = layer.description.map { "<p class=\"description\">\(HTML.escape($0))</p>\n" } ?? ""
        let tile = layer.stillTile
        let sample = "/\(name)/\(tile.z)/\(tile.x)/\(tile.y)"
        let retina = layer.hasRetina ? "<a href=\"\(sample)@2x\(layer.fileExtension)\(query)\">@2x</a>" : ""
        let preview = layer.format.isRaster ? (leaflet ? mapElement(layer) : stillElement(layer)) : vectorElement(layer)
        return """
        <article class="card" id="layer-\(name)" data-layer="\(name)">
        <header><h2>\(name)</h2>\(badges)</header>
        <div class="preview-wrap">\(preview)\(variableSelectors(layer))</div>
        \(description)<dl>
        \(facts)</dl>
        <footer><a href="/\(name).json">TileJSON</a><a href="\(sample)\(layer.fileExtension)\(query)">sample tile</a>\(retina)</footer>
        </article>
        """
    }

    /// The OGC services' URLs of a layer: the WMTS capabilities (the layer is a `Layer` of it)
    /// and the OGC API – Tiles tileset.
    static func ogcFacts(_ layer: LayerPreview, baseURL: String) -> String {
        let capabilities = HTML.escape(baseURL + LayerPreview.wmtsCapabilitiesPath)
        let tileset = HTML.escape(baseURL + layer.ogcAPITilesetPath)
        return "<dt>WMTS</dt><dd class=\"wmts\"><a href=\"\(capabilities)\"><code>\(capabilities)</code></a>"
            + "<span class=\"hint\">capabilities for QGIS, ArcGIS, GDAL; layer <code>\(HTML.escape(layer.name))</code></span></dd>\n"
            + "<dt>OGC API</dt><dd class=\"ogc-api\"><a href=\"\(tileset)\"><code>\(tileset)</code></a>"
            + "<span class=\"hint\">OGC API – Tiles tileset</span></dd>\n"
    }

    /// The element Leaflet turns into a map; the script reads its `data-` attributes.
    static func mapElement(_ layer: LayerPreview) -> String {
        let bounds = layer.bounds.array.map { String($0) }.joined(separator: ",")
        return "<div class=\"preview map\" data-tiles=\"\(HTML.escape(layer.leafletTemplate))\""
            + " data-query=\"\(HTML.escape(layer.defaultQuery))\" data-min-zoom=\"\(layer.minZoom)\""
            + " data-max-zoom=\"\(layer.maxZoom)\" data-bounds=\"\(bounds)\""
            + " data-world=\"\(layer.coversAllLongitudes)\"></div>"
    }

    /// Without Leaflet: the tile at the centre of the bounds at the minimum zoom (and its `@2x`
    /// where the layer has one).
    static func stillElement(_ layer: LayerPreview) -> String {
        let tile = layer.stillTile
        let path = HTML.escape("/\(layer.name)/\(tile.z)/\(tile.x)/\(tile.y)")
        let query = HTML.escape(layer.defaultQuery)
        let ext = layer.fileExtension
        let srcset = layer.hasRetina ? " srcset=\"\(path)@2x\(ext)\(query) 2x\" data-retina=\"true\"" : ""
        return "<div class=\"preview still\"><img src=\"\(path)\(ext)\(query)\"\(srcset) data-ext=\"\(ext)\""
            + " data-tile=\"\(path)\" width=\"256\" height=\"256\" alt=\"tile \(tile) of \(HTML.escape(layer.name))\"></div>"
    }

    /// A vector layer: no picture (the server does not draw vector tiles), its metadata instead.
    static func vectorElement(_ layer: LayerPreview) -> String {
        let names = layer.vectorLayerNames.isEmpty ? "<em>none in the metadata</em>"
            : layer.vectorLayerNames.map { "<code>\(HTML.escape($0))</code>" }.joined(separator: ", ")
        return "<div class=\"preview vector\"><p>Vector tiles (Mapbox Vector Tile, <code>\(layer.fileExtension)</code>), "
            + "zoom \(layer.minZoom)–\(layer.maxZoom)</p><p>Layers: \(names)</p></div>"
    }

    /// How to ask for its tiles: the size, and `@2x` where it has one.
    static func tileHint(_ layer: LayerPreview) -> String {
        guard layer.format.isRaster else { return "<span class=\"hint\">Mapbox Vector Tiles; <code>.mvt</code> also answers</span>" }
        guard layer.hasRetina else { return "<span class=\"hint\">256 px</span>" }
        return "<span class=\"hint\">256 px; add <code>@2x</code> before <code>\(layer.fileExtension)</code> for 512 px</span>"
    }

    /// A selector per URL variable (`?floor=2`); free-form variables get a text field.
    static func variableSelectors(_ layer: LayerPreview) -> String {
        guard !layer.variables.isEmpty else { return "" }
        var html = "<div class=\"variables\">"
        for variable in layer.variables {
            let name = HTML.escape(variable.name)
            html += "<label>\(name) "
            if let values = variable.allowedValues {
                html += "<select data-variable=\"\(name)\">"
                for value in values {
                    let selected = value == variable.defaultValue ? " selected" : ""
                    html += "<option value=\"\(HTML.escape(value))\"\(selected)>\(HTML.escape(value))</option>"
                }
                html += "</select>"
            } else {
                html += "<input data-variable=\"\(name)\" value=\"\(HTML.escape(variable.defaultValue))\" size=\"8\">"
            }
            html += "</label>"
        }
        return html + "</div>"
    }

    /// West, south, east, north, rounded for reading.
    static func boundsText(_ layer: LayerPreview) -> String {
        layer.bounds.array.map { value in
            let rounded = (value * 10_000).rounded() / 10_000
            return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
        }.joined(separator: ", ")
    }
}
