import Foundation

extension TileCoordinate {
    /// The ground the tile covers: west, south, east, north in degrees (EPSG:3857 inverse).
    public var bounds: GeoBounds {
        let side = Double(Self.tilesPerSide(atZoom: z))
        func longitude(_ column: Double) -> Double { column / side * 360 - 180 }
        func latitude(_ row: Double) -> Double { atan(sinh(Double.pi * (1 - 2 * row / side))) * 180 / Double.pi }
        return GeoBounds(west: longitude(Double(x)), south: latitude(Double(y + 1)),
                         east: longitude(Double(x + 1)), north: latitude(Double(y)))
    }
}

extension GeoBounds {
    /// Whether the two boxes share any ground (touching edges count); neither may cross the antimeridian.
    public func intersects(_ other: GeoBounds) -> Bool {
        west <= other.east && other.west <= east && south <= other.north && other.south <= north
    }
}
