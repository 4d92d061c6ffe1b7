import TileGeometry

/// WebMercatorQuad as OGC Two Dimensional Tile Matrix Set 2.0 JSON (OGC 17-083r4 Annex D.1),
/// and the list of tiling schemes that holds it.
enum OGCTileMatrixSetDocument {
    /// The highest matrix of the standard definition.
    static let standardMaxZoom = 24
    /// The well-known scale set.
    static let wellKnownScaleSet = "http://www.opengis.net/def/wkss/OGC/1.0/GoogleMapsCompatible"

    /// `/ogc/tileMatrixSets/WebMercatorQuad`: matrices 0 … 24, or up to the deepest layer.
    static func document(layers: [Layer]) -> JSONValue {
        let set = WebMercatorTileMatrixSet.standard
        let maxZoom = max(standardMaxZoom, layers.map(\.maxZoom).max() ?? 0)
        let origin = WebMercatorTileMatrixSet.origin
        let matrices: [JSONValue] = (0 ... maxZoom).map { zoom in
            let side = TileCoordinate.tilesPerSide(atZoom: zoom)
            return .object([
                ("id", .string(String(zoom))),
                ("scaleDenominator", .number(set.scaleDenominator(atZoom: zoom))),
                ("cellSize", .number(set.cellSize(atZoom: zoom))),
                ("cornerOfOrigin", .string("topLeft")),
                ("pointOfOrigin", .array([.number(origin.x), .number(origin.y)])),
                ("tileWidth", .int(set.tileSize)), ("tileHeight", .int(set.tileSize)),
                ("matrixWidth", .int(side)), ("matrixHeight", .int(side)),
            ])
        }
        return .object([
            ("id", .string(OGCAPIRoute.webMercatorQuad)),
            ("title", .string("Google Maps Compatible for the World")),
            ("uri", .string(OGCAPITilesets.tileMatrixSetURI)),
            ("crs", .string(OGCAPITilesets.crs)),
            ("orderedAxes", .array([.string("X"), .string("Y")])),
            ("wellKnownScaleSet", .string(wellKnownScaleSet)),
            ("tileMatrices", .array(matrices)),
        ])
    }

    /// `/ogc/tileMatrixSets`.
    static func list(baseURL: String) -> JSONValue {
        let href = "\(baseURL)/ogc/tileMatrixSets/\(OGCAPIRoute.webMercatorQuad)"
        return .object([
            ("links", .array([OGCAPIDocuments.link("self", href: "\(baseURL)/ogc/tileMatrixSets")])),
            ("tileMatrixSets", .array([.object([
                ("id", .string(OGCAPIRoute.webMercatorQuad)),
                ("title", .string("Google Maps Compatible for the World")),
                ("uri", .string(OGCAPITilesets.tileMatrixSetURI)),
                ("links", .array([OGCAPIDocuments.link("self", href: href, title: "the tile matrix set")])),
            ])])),
        ])
    }
}
