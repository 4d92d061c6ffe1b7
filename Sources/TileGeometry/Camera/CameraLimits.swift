/// A layer's restrictions on the camera: the SDK's `setMinZoom(_:maxZoom:)` and `cameraTargetBounds`.
public struct CameraLimits: Sendable, Hashable {
    /// Smallest zoom a camera may have.
    public var minZoom: Double
    /// Largest zoom a camera may have.
    public var maxZoom: Double
    /// When set, the camera target is kept inside this box (the view may still show ground outside it).
    /// A box with west > east crosses the antimeridian.
    public var targetBounds: GeoBounds?

    /// Limits; a `minZoom` above `maxZoom` is lowered to it.
    public init(minZoom: Double = 0, maxZoom: Double = Double(TileCoordinate.maxZoom),
                targetBounds: GeoBounds? = nil) {
        self.minZoom = min(minZoom, maxZoom)
        self.maxZoom = maxZoom
        self.targetBounds = targetBounds
    }

    /// Limits from a layer's integer zoom range.
    public init(minZoom: Int, maxZoom: Int, targetBounds: GeoBounds? = nil) {
        self.init(minZoom: Double(minZoom), maxZoom: Double(maxZoom), targetBounds: targetBounds)
    }

    /// No limits beyond the camera's own (zoom 0 … `TileCoordinate.maxZoom`).
    public static let none = CameraLimits()

    /// `zoom` clamped to [minZoom, maxZoom]: `setMinZoom(10, maxZoom: 15)` turns zoom 4 into 10.
    public func clampZoom(_ zoom: Double) -> Double {
        min(max(zoom, minZoom), maxZoom)
    }

    /// The integer tile zooms inside the range: ceil(minZoom) … floor(maxZoom).
    public var tileZoomRange: ClosedRange<Int> {
        let low = Int(minZoom.rounded(.up))
        return low...max(low, Int(maxZoom.rounded(.down)))
    }

    /// `target` moved to the nearest point of `targetBounds` (unchanged without bounds or when inside).
    public func clampTarget(_ target: Coordinate) -> Coordinate {
        guard let box = targetBounds else { return target }
        let latitude = min(max(target.latitude, box.south), box.north)
        return Coordinate(latitude: latitude, longitude: Self.clampLongitude(target.longitude, box))
    }

    /// A longitude clamped into [west, east] going round the world (west > east crosses the antimeridian):
    /// inside stays; outside goes to the edge nearer by wrapped distance.
    static func clampLongitude(_ longitude: Double, _ box: GeoBounds) -> Double {
        let turn = Coordinate.degreesPerTurn
        var span = box.east - box.west
        if span < 0 { span += turn }
        if span >= turn { return longitude }
        var offset = (longitude - box.west).truncatingRemainder(dividingBy: turn)
        if offset < 0 { offset += turn }
        if offset <= span { return longitude }
        // Past the east edge by (offset - span), short of the west edge by (turn - offset).
        return offset - span <= turn - offset ? box.east : box.west
    }
}
