import TileGeometry

/// The `metadata` table of an MBTiles 1.3 file: the rows TileJSON needs, parsed, plus every row as stored.
public struct MBTilesMetadata: Sendable, Equatable {
    /// The `center` row: where a client should open the map.
    public struct Center: Sendable, Equatable {
        /// Degrees east.
        public var longitude: Double
        /// Degrees north.
        public var latitude: Double
        /// Zoom level.
        public var zoom: Int

        /// A center.
        public init(longitude: Double, latitude: Double, zoom: Int) {
            self.longitude = longitude
            self.latitude = latitude
            self.zoom = zoom
        }
    }

    /// `name`: the tileset's human-readable name.
    public var name: String?
    /// `format`: the tile encoding (`png`, `jpg`, `webp`, `pbf`), as stored (lower-cased).
    public var format: String?
    /// `bounds`: "west,south,east,north" in degrees.
    public var bounds: GeoBounds?
    /// `center`: "longitude,latitude,zoom".
    public var center: Center?
    /// `minzoom`, or the lowest `zoom_level` in `tiles` when the row is absent.
    public var minZoom: Int?
    /// `maxzoom`, or the highest `zoom_level` in `tiles` when the row is absent.
    public var maxZoom: Int?
    /// `attribution`: text (may hold HTML) to show with the map.
    public var attribution: String?
    /// `description`.
    public var description: String?
    /// Every row as stored, including the ones parsed above and any others (`type`, `version`, `json`…).
    public var values: [String: String]

    /// Metadata from parsed fields; `values` holds any further rows.
    public init(
        name: String? = nil, format: String? = nil, bounds: GeoBounds? = nil, center: Center? = nil,
        minZoom: Int? = nil, maxZoom: Int? = nil, attribution: String? = nil, description: String? = nil,
        values: [String: String] = [:]
    ) {
        self.name = name
        self.format = format
        self.bounds = bounds
        self.center = center
        self.minZoom = minZoom
        self.maxZoom = maxZoom
        self.attribution = attribution
        self.description = description
        self.values = values
    }

    /// Parses the rows of a `metadata` table; a malformed `bounds`, `center`, `minzoom` or `maxzoom`
    /// throws `.invalidMetadata` naming `path` and the key. Surrounding spaces are ignored.
    public init(parsing values: [String: String], path: String) throws(TileProviderError) {
        func numbers(_ key: String, count: Int) throws(TileProviderError) -> [Double]? {
            guard let text = values[key] else { return nil }
            let parts = text.split(separator: ",", omittingEmptySubsequences: false)
            let parsed = parts.compactMap { Double($0.trimmingSpaces) }
            guard parts.count == count, parsed.count == count, parsed.allSatisfy(\.isFinite) else {
                throw .invalidMetadata(path: path, key: key, value: text)
            }
            return parsed
        }
        func zoom(_ key: String) throws(TileProviderError) -> Int? {
            guard let text = values[key] else { return nil }
            guard let level = Int(text.trimmingSpaces), level >= 0, level <= TileCoordinate.maxZoom else {
                throw .invalidMetadata(path: path, key: key, value: text)
            }
            return level
        }
        self.init(values: values)
        name = values["name"]
        format = values["format"]?.trimmingSpaces.lowercased()
        attribution = values["attribution"]
        description = values["description"]
        minZoom = try zoom("minzoom")
        maxZoom = try zoom("maxzoom")
        if let box = try numbers("bounds", count: 4) {
            bounds = GeoBounds(west: box[0], south: box[1], east: box[2], north: box[3])
        }
        if let point = try numbers("center", count: 3) {
            // MBTiles 1.3: the zoom of `center` is an integer; "2.0" is accepted as 2.
            guard point[2] == point[2].rounded(), point[2] >= 0, point[2] <= Double(TileCoordinate.maxZoom) else {
                throw .invalidMetadata(path: path, key: "center", value: values["center"] ?? "")
            }
            center = Center(longitude: point[0], latitude: point[1], zoom: Int(point[2]))
        }
    }

    /// The rows to store for this metadata: `values`, overridden by every parsed field that is set.
    public var encodedValues: [String: String] {
        var rows = values
        rows["name"] = name ?? rows["name"]
        rows["format"] = format ?? rows["format"]
        rows["attribution"] = attribution ?? rows["attribution"]
        rows["description"] = description ?? rows["description"]
        if let minZoom { rows["minzoom"] = String(minZoom) }
        if let maxZoom { rows["maxzoom"] = String(maxZoom) }
        if let bounds { rows["bounds"] = bounds.array.map { String($0) }.joined(separator: ",") }
        if let center { rows["center"] = "\(center.longitude),\(center.latitude),\(center.zoom)" }
        return rows
    }
}
