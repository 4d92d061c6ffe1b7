import TileGeometry
import TileProviders

extension LayerSettings {
    /// Names the URL space already uses.
    static let reservedNames: Set<String> = ["static", "camera", "admin", "assets", "index", "healthz", "readyz", "metrics", "wmts", "ogc"]

    init(node: ConfigNode, baseFolder: String, registry: SourceRegistry) throws(ConfigurationError) {
        let keys = try node.mapping(allowed: [
            "name", "default", "source", "minZoom", "maxZoom", "tileSize", "maxAge", "emptyTile", "bounds",
            "targetBounds", "attribution", "description", "cache", "ttl", "format", "quality",
        ])
        guard let nameNode = keys["name"] else { throw node.error("a layer needs a name") }
        let name = try nameNode.string()
        guard Self.isValidName(name) else {
            throw nameNode.error("\"\(name)\" is not a valid layer name (a lower-case letter, then a-z, 0-9, _ or -)")
        }
        guard !Self.reservedNames.contains(name) else {
            throw nameNode.error("\"\(name)\" is reserved (\(Self.reservedNames.sorted().joined(separator: ", ")))")
        }
        guard let sourceNode = keys["source"] else { throw node.error("layer \"\(name)\" needs a source") }
        self.init(name: name, source: try SourceSettings(node: sourceNode, baseFolder: baseFolder, registry: registry))
        if let value = keys["format"] {
            let text = try value.string()
            guard let named = TileFormat(name: text) else { throw value.error("\"\(text)\" is not one of png, jpg, webp, pbf") }
            format = named
            source = SourceSettings(source.value.adopting(format: named))
        }
        if let value = keys["quality"] { quality = try value.int(in: 1 ... 100) }
        if let value = keys["default"] { isDefault = try value.bool() }
        if let value = keys["minZoom"] { minZoom = try value.int(in: 0 ... TileCoordinate.maxZoom) }
        if let value = keys["maxZoom"] { maxZoom = try value.int(in: 0 ... TileCoordinate.maxZoom) }
        if let minZoom, let maxZoom, minZoom > maxZoom {
            throw node.error("minZoom \(minZoom) is above maxZoom \(maxZoom)")
        }
        if let value = keys["tileSize"] {
            tileSize = try value.int(in: 256 ... 512)
            guard tileSize == 256 || tileSize == 512 else { throw value.error("must be 256 or 512") }
        }
        if let value = keys["maxAge"] { maxAge = try value.int(in: 0 ... 31_536_000) }
        if let value = keys["ttl"] { ttl = try value.int(in: 1 ... 31_536_000) }
        if let value = keys["emptyTile"] {
            let text = try value.string()
            guard let answer = EmptyTileAnswer(rawValue: text) else {
                throw value.error("\"\(text)\" is not one of 404, 204, transparent")
            }
            emptyTile = answer
        }
        if let value = keys["bounds"] { bounds = try Self.bounds(value) }
        if let value = keys["targetBounds"] { targetBounds = try Self.bounds(value) }
        if let value = keys["attribution"] { attribution = try value.string() }
        if let value = keys["description"] { description = try value.string() }
        if let tiers = try keys["cache"]?.mapping(allowed: ["memory", "disk", "redis", "revalidateSeconds"]) {
            if let value = tiers["memory"] { cache.memory = try value.bool() }
            if let value = tiers["disk"] { cache.disk = ConfigNode.resolve(try value.string(), against: baseFolder) }
            if let value = tiers["redis"] { cache.redis = try value.bool() }
            if let value = tiers["revalidateSeconds"] { cache.revalidateSeconds = try value.double(in: 0 ... 3600) }
        }
    }

    static func isValidName(_ name: String) -> Bool { isValidName(name.utf8) }

    /// `isValidName` of a name's UTF-8 (a request path's bytes, read in place).
    static func isValidName(_ name: some Collection<UInt8>) -> Bool {
        guard let first = name.first, first >= UInt8(ascii: "a"), first <= UInt8(ascii: "z") else { return false }
        return name.allSatisfy { byte in
            (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: "-")
        }
    }

    private static func bounds(_ node: ConfigNode) throws(ConfigurationError) -> GeoBounds {
        let v = try node.doubles(count: 4)
        guard v[0] >= -180, v[2] <= 180, v[0] < v[2], v[1] >= -90, v[3] <= 90, v[1] < v[3] else {
            throw node.error("expected [west, south, east, north] in degrees with west < east and south < north")
        }
        return GeoBounds(west: v[0], south: max(v[1], -WebMercator.maxLatitude), east: v[2],
                         north: min(v[3], WebMercator.maxLatitude))
    }

    /// Names are unique and at most one layer is the default.
    static func checkNames(_ layers: [LayerSettings], file: String) throws(ConfigurationError) {
        var seen: Set<String> = []
        for (index, layer) in layers.enumerated() where !seen.insert(layer.name).inserted {
            throw ConfigurationError(file: file, key: "layers[\(index)].name", message: "layer \"\(layer.name)\" is defined twice")
        }
        let defaults = layers.filter(\.isDefault).map(\.name)
        if defaults.count > 1 {
            throw ConfigurationError(file: file, key: "layers", message: "more than one default layer: \(defaults.joined(separator: ", "))")
        }
    }
}

extension LayerSettings {
    /// What each source refers to exists (a composite's members).
    static func checkReferences(_ layers: [LayerSettings], file: String) throws(ConfigurationError) {
        let sources = Dictionary(uniqueKeysWithValues: layers.map { ($0.name, $0.source) })
        for (index, layer) in layers.enumerated() {
            try layer.source.value.checkReferences(in: sources, key: "layers[\(index)].source", file: file)
        }
    }
}
