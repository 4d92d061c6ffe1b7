import TileGeometry

/// TileJSON 3.0.0 documents (https://github.com/mapbox/tilejson-spec/tree/master/3.0.0).
enum TileJSON {
    static func document(for layer: Layer, baseURL: String) -> JSONValue {
        let (settings, center) = layer.described
        let minZoom = settings.minZoom ?? 0, maxZoom = settings.maxZoom ?? Layer.defaultMaxZoom
        let bounds = settings.bounds ?? WebMercator.worldBounds
        let centerZoom = min(max(center?.zoom ?? 2, minZoom), maxZoom)
        let centerPoint = center.map { ($0.longitude, $0.latitude) }
            ?? ((bounds.west + bounds.east) / 2, (bounds.south + bounds.north) / 2)
        var members: [(String, JSONValue)] = [
            ("tilejson", .string("3.0.0")),
            ("name", .string(settings.name)),
            ("tiles", .array([.string("\(baseURL)/\(settings.name)/{z}/{x}/{y}.\(layer.format.fileExtension)")])),
            ("format", .string(layer.format.rawValue)),
            ("scheme", .string("xyz")),
            ("minzoom", .int(minZoom)),
            ("maxzoom", .int(maxZoom)),
            ("bounds", .array(bounds.array.map(JSONValue.number))),
            ("center", .array([.number(centerPoint.0), .number(centerPoint.1), .int(centerZoom)])),
            ("tileSize", .int(256)),
        ]
        if let attribution = settings.attribution { members.append(("attribution", .string(attribution))) }
        if let description = settings.description { members.append(("description", .string(description))) }
        // TileJSON 3.0.0 §3.17: required for vector tiles; from the MBTiles `json` / PMTiles metadata.
        if layer.format == .pbf {
            var layers: [JSONValue] = []
            if case .array(let listed)? = settings.vectorLayers.flatMap({ JSONValue(parsing: $0) }) { layers = listed }
            members.append(("vector_layers", .array(layers)))
        }
        return .object(members)
    }
}
