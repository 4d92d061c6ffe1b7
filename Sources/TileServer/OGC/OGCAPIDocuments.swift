import TileGeometry

/// The JSON documents of OGC API – Tiles 1.0 (OGC 20-057) and OGC API – Common that describe
/// the service and its collections; `OGCAPITilesets` describes the tiles. Pure functions of
/// the layers and the public base URL.
enum OGCAPIDocuments {
    /// The media type of every document.
    static let json = "application/json"
    /// The CRS of bounding boxes (longitude, latitude).
    static let crs84 = "http://www.opengis.net/def/crs/OGC/1.3/CRS84"

    /// `/ogc`: the landing page, with links to the conformance, the data and the tiling schemes.
    static func landing(baseURL: String) -> JSONValue {
        let root = "\(baseURL)/ogc"
        return .object([
            ("title", .string("tilelayer")),
            ("description", .string("Map tiles of every layer, as OGC API – Tiles 1.0")),
            ("links", .array([
                link("self", href: root, title: "this document"),
                link(OGCConformance.Relation.conformance, href: "\(root)/conformance", title: "conformance classes"),
                link(OGCConformance.Relation.data, href: "\(root)/collections", title: "the layers"),
                link(OGCConformance.Relation.tilingSchemes, href: "\(root)/tileMatrixSets", title: "tiling schemes"),
                link("alternate", href: "\(baseURL)/wmts/1.0.0/WMTSCapabilities.xml", type: "application/xml",
                     title: "WMTS 1.0.0 capabilities"),
            ])),
        ])
    }

    /// `/ogc/conformance`: the classes served, with the tile encodings of `layers`.
    static func conformance(layers: [Layer]) -> JSONValue {
        let classes = OGCConformance.classes(for: layers.map(OGCTileFormat.of))
        return .object([("conformsTo", .array(classes.map(JSONValue.string)))])
    }

    /// `/ogc/collections`.
    static func collections(layers: [Layer], baseURL: String) -> JSONValue {
        .object([
            ("links", .array([link("self", href: "\(baseURL)/ogc/collections")])),
            ("collections", .array(layers.map { collection($0, baseURL: baseURL) })),
        ])
    }

    /// `/ogc/collections/{layer}`: its extent and a link to its tilesets.
    static func collection(_ layer: Layer, baseURL: String) -> JSONValue {
        let format = OGCTileFormat.of(layer)
        let path = "\(baseURL)/ogc/collections/\(layer.name)"
        let tilesets = OGCAPITilesets.path(of: layer, baseURL: baseURL)
        let relation = format.isVector ? OGCConformance.Relation.tilesetsVector : OGCConformance.Relation.tilesetsMap
        var members: [(String, JSONValue)] = [("id", .string(layer.name)), ("title", .string(layer.name))]
        if let description = layer.settings.description { members.append(("description", .string(description))) }
        if let attribution = layer.settings.attribution { members.append(("attribution", .string(attribution))) }
        members += [
            ("extent", .object([("spatial", .object([
                ("bbox", .array([.array(bbox(of: layer).map(JSONValue.number))])), ("crs", .string(crs84)),
            ]))])),
            ("dataType", .string(format.dataType)),
            ("links", .array([
                link("self", href: path),
                link(relation, href: tilesets, title: "tilesets of \(layer.name)"),
            ])),
        ]
        return .object(members)
    }

    /// West, south, east, north (the world without configured bounds).
    static func bbox(of layer: Layer) -> [Double] {
        (layer.settings.bounds ?? WebMercator.worldBounds).array
    }

    /// A link object (RFC 8288 in JSON, OGC API – Common).
    static func link(_ rel: String, href: String, type: String = json, title: String? = nil, templated: Bool = false) -> JSONValue {
        var members: [(String, JSONValue)] = [("rel", .string(rel)), ("type", .string(type)), ("href", .string(href))]
        if let title { members.append(("title", .string(title))) }
        if templated { members.append(("templated", .bool(true))) }
        return .object(members)
    }
}
