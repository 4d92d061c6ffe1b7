/// A change of camera, the SDK's `GMSCameraUpdate`: made by its factory functions and applied to a
/// camera in a viewport with a layer's limits (the SDK's `moveCamera`).
public enum CameraUpdate: Sendable, Hashable {
    /// One zoom level closer.
    case zoomIn
    /// One zoom level further.
    case zoomOut
    /// To a zoom level.
    case zoomTo(Double)
    /// By a number of zoom levels, optionally keeping a screen point fixed.
    case zoomBy(Double, point: ScreenPoint?)
    /// To a target, optionally with a zoom.
    case setTarget(Coordinate, zoom: Double?)
    /// To a camera given by its values as asked for, unclamped (a `GMSCameraPosition`): applied, the zoom
    /// is clamped to the layer's range before the tilt, so the tilt limit is the one of the zoom shown.
    case setCamera(target: Coordinate, zoom: Double, bearing: Double = 0, tilt: Double = 0)
    /// Scroll by points on screen (x right, y down).
    case scrollBy(x: Double, y: Double)
    /// Fit a box with insets kept clear (in addition to the viewport's padding).
    case fitBounds(GeoBounds, insets: EdgeInsets)

    /// `zoomBy` about the target.
    public static func zoom(by delta: Double) -> CameraUpdate { .zoomBy(delta, point: nil) }
    /// `zoomBy` keeping `point` fixed on screen.
    public static func zoom(by delta: Double, at point: ScreenPoint) -> CameraUpdate { .zoomBy(delta, point: point) }
    /// `setCamera` to the values of `camera` (already valid on its own, so its tilt is at most the
    /// largest tilt of its own zoom).
    public static func setCamera(_ camera: Camera) -> CameraUpdate {
        .setCamera(target: camera.target, zoom: camera.zoom, bearing: camera.bearing, tilt: camera.tilt)
    }
    /// `setTarget` keeping the zoom.
    public static func setTarget(_ target: Coordinate) -> CameraUpdate { .setTarget(target, zoom: nil) }
    /// `fitBounds` with 64 points of padding, the SDK's default for `fit(_:)`.
    public static func fit(_ bounds: GeoBounds) -> CameraUpdate { .fitBounds(bounds, insets: EdgeInsets(all: defaultFitPadding)) }
    /// `fitBounds` with the same padding at every edge.
    public static func fit(_ bounds: GeoBounds, withPadding padding: Double) -> CameraUpdate {
        .fitBounds(bounds, insets: EdgeInsets(all: padding))
    }
    /// `fitBounds` with insets per edge.
    public static func fit(_ bounds: GeoBounds, with insets: EdgeInsets) -> CameraUpdate { .fitBounds(bounds, insets: insets) }

    /// Padding of `fit(_:)` in points (`GMSCameraUpdate.fit(_:)` documents 64).
    public static let defaultFitPadding = 64.0

    /// The camera after this update, clamped to `limits` (zoom range, then `targetBounds`).
    public func applied(to camera: Camera, in viewport: Viewport, limits: CameraLimits = .none) -> Camera {
        switch self {
        case .zoomIn:
            return camera.zoomedIn().clamped(to: limits)
        case .zoomOut:
            return camera.zoomedOut().clamped(to: limits)
        case .zoomTo(let zoom):
            return camera.zoomed(to: zoom).clamped(to: limits)
        case .zoomBy(let delta, nil):
            return camera.zoomed(by: delta).clamped(to: limits)
        case .zoomBy(let delta, let point?):
            return camera.zoomed(by: delta, at: point, in: viewport, limits: limits)
        case .setTarget(let target, let zoom):
            return camera.with(target: target, zoom: zoom).clamped(to: limits)
        case .setCamera(let target, let zoom, let bearing, let tilt):
            return Camera(target: target, zoom: zoom, bearing: bearing, tilt: tilt, limits: limits)
        case .scrollBy(let x, let y):
            return camera.scrolled(byX: x, y: y).clamped(to: limits)
        case .fitBounds(let bounds, let insets):
            return Camera.fitting(bounds, in: viewport, insets: insets, limits: limits)
        }
    }
}
