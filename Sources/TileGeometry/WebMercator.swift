/// Constants and conversions of the Web Mercator projection (EPSG:3857).
public enum WebMercator {
    /// The latitude at which the Mercator square ends: atan(sinh(π)) in degrees.
    public static let maxLatitude = 85.05112878
    /// Tile side in points at scale 1.
    public static let tileSize = 256
    /// The whole world: west, south, east, north.
    public static let worldBounds = GeoBounds(west: -180, south: -maxLatitude, east: 180, north: maxLatitude)
}

/// A west, south, east, north box in degrees.
public struct GeoBounds: Sendable, Hashable, Codable {
    public var west: Double
    public var south: Double
    public var east: Double
    public var north: Double

    /// A box.
    public init(west: Double, south: Double, east: Double, north: Double) {
        self.west = west
        self.south = south
        self.east = east
        self.north = north
    }

    /// [west, south, east, north], as TileJSON writes it.
    public var array: [Double] { [west, south, east, north] }
}
