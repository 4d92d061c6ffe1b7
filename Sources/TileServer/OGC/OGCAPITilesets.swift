/// The tileset documents of OGC API – Tiles 1.0 (OGC 20-057 §10 and §11): one tileset per
/// layer, in the WebMercatorQuad tiling scheme.
enum OGCAPITilesets {
    /// URI of the tiling scheme (OGC 17-083r4 Annex D.1).
    static let tileMatrixSetURI = "http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad"
    /// Its CRS, EPSG:3857.
    static let crs = "http://www.opengis.net/def/crs/EPSG/0/3857"

    /// `/ogc/collections/{layer}/map/tiles`, or `…/tiles` for vector tiles.
    static func path(of layer: Layer, baseURL: String) -> String {
        "\(baseURL)/ogc/collections/\(layer.name)" + (OGCTileFormat.of(layer).isVector ? "/tiles" : "/map/tiles")
    }

    /// The tilesets list: the one WebMercatorQuad tileset.
    static func list(_ layer: Layer, baseURL: String) -> JSONValue {
        let format = OGCTileFormat.of(layer)
        let tileset = "\(path(of: layer, baseURL: baseURL))/\(OGCAPIRoute.webMercatorQuad)"
        return .object([
            ("links", .array([OGCAPIDocuments.link("self", href: path(of: layer, baseURL: baseURL))])),
            ("tilesets", .array([.object([
                ("title", .string("\(layer.name), \(OGCAPIRoute.webMercatorQuad)")),
                ("dataType", .string(format.dataType)),
                ("crs", .string(crs)),
                ("tileMatrixSetURI", .string(tileMatrixSetURI)),
                ("links", .array([
                    OGCAPIDocuments.link("self", href: tileset, title: "the tileset"),
                    tilingScheme(baseURL: baseURL),
                ])),
            ])])),
        ])
    }

    /// The tileset: data type, CRS, limits from the layer's zoom range and bounds, and the
    /// templated `item` link of its tiles.
    static func tileset(_ layer: Layer, baseURL: String) -> JSONValue {
        let format = OGCTileFormat.of(layer)
        let tileset = "\(path(of: layer, baseURL: baseURL))/\(OGCAPIRoute.webMercatorQuad)"
        let limits: [JSONValue] = TileMatrixLimits.of(layer).map { limit in
            .object([
                ("tileMatrix", .string(String(limit.zoom))),
                ("minTileRow", .int(limit.rows.lowerBound)), ("maxTileRow", .int(limit.rows.upperBound)),
                ("minTileCol", .int(limit.columns.lowerBound)), ("maxTileCol", .int(limit.columns.upperBound)),
            ])
        }
        var members: [(String, JSONValue)] = [
            ("title", .string("\(layer.name), \(OGCAPIRoute.webMercatorQuad)")),
            ("dataType", .string(format.dataType)),
            ("crs", .string(crs)),
            ("tileMatrixSetURI", .string(tileMatrixSetURI)),
            ("tileMatrixSetLimits", .array(limits)),
            ("boundingBox", .object([
                ("lowerLeft", .array(OGCAPIDocuments.bbox(of: layer)[0 ... 1].map(JSONValue.number))),
                ("upperRight", .array(OGCAPIDocuments.bbox(of: layer)[2 ... 3].map(JSONValue.number))),
                ("crs", .string(OGCAPIDocuments.crs84)),
            ])),
        ]
        if let attribution = layer.settings.attribution { members.append(("attribution", .string(attribution))) }
        members.append(("links", .array([
            OGCAPIDocuments.link("self", href: tileset, title: "this tileset"),
            tilingScheme(baseURL: baseURL),
            OGCAPIDocuments.link("item", href: "\(tileset)/{tileMatrix}/{tileRow}/{tileCol}", type: format.mediaType,
                                 title: "tiles of \(layer.name)", templated: true),
        ])))
        return .object(members)
    }

    private static func tilingScheme(baseURL: String) -> JSONValue {
        OGCAPIDocuments.link(OGCConformance.Relation.tilingScheme, href: "\(baseURL)/ogc/tileMatrixSets/\(OGCAPIRoute.webMercatorQuad)",
                             title: "the tiling scheme")
    }
}
