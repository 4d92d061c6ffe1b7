/// A point on the Earth in degrees (WGS 84 latitude and longitude, as the camera documents use them).
public struct Coordinate: Sendable, Hashable, Codable, CustomStringConvertible {
    /// Degrees north of the equator.
    public var latitude: Double
    /// Degrees east of Greenwich.
    public var longitude: Double

    /// A coordinate, stored as given (see `normalized()` for the clamped and wrapped form).
    public init(latitude: Double, longitude: Double) {
        self.latitude = latitude
        self.longitude = longitude
    }

    /// The coordinate with its latitude clamped to the Web Mercator square and its longitude
    /// wrapped into [-180, 180).
    public func normalized() -> Coordinate {
        Coordinate(latitude: Self.clampedLatitude(latitude), longitude: Self.wrappedLongitude(longitude))
    }

    /// Degrees of longitude in one turn of the Earth.
    public static let degreesPerTurn = 360.0

    /// `latitude` clamped to [-WebMercator.maxLatitude, WebMercator.maxLatitude]
    /// (the camera documents: latitude 100 becomes 85.0511…).
    public static func clampedLatitude(_ latitude: Double) -> Double {
        min(max(latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude)
    }

    /// `longitude` wrapped into [-180, 180) (the camera documents: 480, 840 and 1200 become 120).
    public static func wrappedLongitude(_ longitude: Double) -> Double {
        let half = degreesPerTurn / 2
        // Already in range: returned exactly (the arithmetic below would turn 139.7671 into 139.76710000000003).
        if longitude >= -half && longitude < half { return longitude }
        var shifted = (longitude + half).truncatingRemainder(dividingBy: degreesPerTurn)
        if shifted < 0 { shifted += degreesPerTurn }
        // Rounding can leave exactly one full turn (e.g. -1e-17 + 360); that is the west edge.
        if shifted >= degreesPerTurn { shifted -= degreesPerTurn }
        return shifted - half
    }

    public var description: String { "(\(latitude), \(longitude))" }

    private enum CodingKeys: String, CodingKey {
        // The /static JSON shape: {"lat": …, "lon": …}.
        case latitude = "lat"
        case longitude = "lon"
    }
}
