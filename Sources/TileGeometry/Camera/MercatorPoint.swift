import Foundation

/// A point of the Web Mercator plane (EPSG:3857) scaled to the unit square:
/// x from 0 at 180° W eastwards to 1 at 180° E, y from 0 at the north edge (85.0511° N) southwards to 1.
///
/// x is not wrapped, so a sequence of points stays continuous across the antimeridian;
/// y outside [0, 1] lies beyond the Mercator square (towards a pole).
/// Multiply by `WebMercator.worldSize(atZoom:)` to get world points at a zoom.
public struct MercatorPoint: Sendable, Hashable {
    /// Eastward, one unit per world width.
    public var x: Double
    /// Southward, one unit per world height.
    public var y: Double

    /// A point of the unit Mercator plane.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }

    /// The projection of `coordinate` (no clamping or wrapping: latitude ±90 gives an infinite y).
    @inlinable
    public init(_ coordinate: Coordinate) {
        x = coordinate.longitude / Coordinate.degreesPerTurn + 0.5
        let phi = coordinate.latitude * .pi / 180
        y = 0.5 - log(tan(.pi / 4 + phi / 2)) / (2 * .pi)
    }

    /// The coordinate this point projects from (longitude not wrapped; see `Coordinate.normalized()`).
    @inlinable
    public var coordinate: Coordinate {
        let latitude = atan(sinh(.pi * (1 - 2 * y))) * 180 / .pi
        return Coordinate(latitude: latitude, longitude: (x - 0.5) * Coordinate.degreesPerTurn)
    }
}

extension WebMercator {
    /// The width (and height) of the world in points at `zoom`: 256·2^zoom (1024 at zoom 2).
    /// The zoom need not be an integer.
    @inlinable
    public static func worldSize(atZoom zoom: Double) -> Double {
        Double(tileSize) * exp2(zoom)
    }
}
