/// Where a map view looks from: the Maps SDK's `GMSCameraPosition` (target, zoom, bearing, tilt).
///
/// A camera is always valid: `init` clamps the latitude to the Web Mercator square, wraps the
/// longitude into [-180, 180), clamps the zoom to [0, `TileCoordinate.maxZoom`], takes the bearing
/// modulo 360 and clamps the tilt to [0, `Camera.maxTilt(atZoom:)`]. A layer's own limits are applied
/// with `clamped(to:)`.
public struct Camera: Sendable, Hashable, Codable {
    /// The point on the ground drawn at the centre of the padded view.
    public let target: Coordinate
    /// Zoom level: the world is 256·2^zoom points wide; need not be an integer.
    public let zoom: Double
    /// Degrees clockwise from true north of the view's top edge, in [0, 360).
    public let bearing: Double
    /// Degrees from the nadir: 0 looks straight down; at most `maxTilt(atZoom: zoom)`.
    public let tilt: Double

    /// A camera; every value is clamped or wrapped into its valid range (see the type's comment).
    public init(target: Coordinate, zoom: Double, bearing: Double = 0, tilt: Double = 0) {
        self.target = target.normalized()
        let zoom = min(max(zoom, 0), Double(TileCoordinate.maxZoom))
        self.zoom = zoom
        self.bearing = Self.normalizedBearing(bearing)
        self.tilt = min(max(tilt, 0), Self.maxTilt(atZoom: zoom))
    }

    /// A camera at (latitude, longitude), the SDK's `camera(withLatitude:longitude:zoom:)`.
    public init(latitude: Double, longitude: Double, zoom: Double, bearing: Double = 0, tilt: Double = 0) {
        self.init(target: Coordinate(latitude: latitude, longitude: longitude),
                  zoom: zoom, bearing: bearing, tilt: tilt)
    }

    /// Zoom at or below which the tilt is limited to `lowZoomMaxTilt`.
    public static let lowTiltZoom = 10.0
    /// Zoom at or above which the tilt is limited to `highZoomMaxTilt`.
    public static let highTiltZoom = 16.0
    /// Largest tilt at zoom 10 and below, in degrees.
    public static let lowZoomMaxTilt = 30.0
    /// Largest tilt at zoom 16 and above, in degrees.
    public static let highZoomMaxTilt = 65.0

    /// The largest tilt allowed at `zoom`: 30° at zoom ≤ 10, 65° at zoom ≥ 16, linear in between
    /// (SPEC "Tile geometry"; continuous in the zoom, so zooming never makes the tilt jump).
    public static func maxTilt(atZoom zoom: Double) -> Double {
        if zoom <= lowTiltZoom { return lowZoomMaxTilt }
        if zoom >= highTiltZoom { return highZoomMaxTilt }
        let fraction = (zoom - lowTiltZoom) / (highTiltZoom - lowTiltZoom)
        return lowZoomMaxTilt + fraction * (highZoomMaxTilt - lowZoomMaxTilt)
    }

    /// Degrees in a full turn of the bearing.
    public static let degreesPerTurn = 360.0

    /// `bearing` modulo 360, in [0, 360) (-90 becomes 270, 450 becomes 90).
    public static func normalizedBearing(_ bearing: Double) -> Double {
        var value = bearing.truncatingRemainder(dividingBy: degreesPerTurn)
        if value < 0 { value += degreesPerTurn }
        return value >= degreesPerTurn ? 0 : value
    }

    /// The same camera with other values (each clamped again as `init` does).
    public func with(target: Coordinate? = nil, zoom: Double? = nil,
                     bearing: Double? = nil, tilt: Double? = nil) -> Camera {
        Camera(target: target ?? self.target, zoom: zoom ?? self.zoom,
               bearing: bearing ?? self.bearing, tilt: tilt ?? self.tilt)
    }

    /// The camera after a layer's limits: zoom clamped to [minZoom, maxZoom] (the nearest valid zoom),
    /// the target clamped into `targetBounds` when there is one, and the tilt clamped for the new zoom.
    ///
    /// This camera's tilt was already clamped for its own zoom; to clamp values as asked for (a tilt of
    /// 60 at zoom 8 raised to minZoom 16 keeps 60), use `init(target:zoom:bearing:tilt:limits:)`.
    public func clamped(to limits: CameraLimits) -> Camera {
        Camera(target: limits.clampTarget(target), zoom: limits.clampZoom(zoom), bearing: bearing, tilt: tilt)
    }

    /// The camera a map with `limits` shows when asked for these values (the SDK's `moveCamera` with a
    /// `GMSCameraPosition`): the zoom is clamped to the limits first, so the tilt is limited by the
    /// largest tilt of the zoom actually shown, then the target is clamped into `targetBounds`.
    public init(target: Coordinate, zoom: Double, bearing: Double = 0, tilt: Double = 0, limits: CameraLimits) {
        self.init(target: limits.clampTarget(target.normalized()), zoom: limits.clampZoom(zoom),
                  bearing: bearing, tilt: tilt)
    }

    /// Decodes `{"target": {"lat", "lon"}, "zoom", "bearing", "tilt"}` (the `/static` JSON shape),
    /// clamping as `init(target:zoom:bearing:tilt:)` does; it encodes to the same shape.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        self.init(target: try container.decode(Coordinate.self, forKey: .target),
                  zoom: try container.decode(Double.self, forKey: .zoom),
                  bearing: try container.decodeIfPresent(Double.self, forKey: .bearing) ?? 0,
                  tilt: try container.decodeIfPresent(Double.self, forKey: .tilt) ?? 0)
    }

    private enum CodingKeys: String, CodingKey {
        case target, zoom, bearing, tilt
    }

    /// The target as a point of the unit Mercator plane.
    public var mercatorTarget: MercatorPoint { MercatorPoint(target) }

    /// The width of the world in points at this camera's zoom.
    public var worldSize: Double { WebMercator.worldSize(atZoom: zoom) }
}
