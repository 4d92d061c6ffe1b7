import Foundation

// The moves of the SDK's `GMSCameraUpdate`, as functions from camera to camera. Each result is a
// valid camera (see `Camera.init`); apply a layer's `CameraLimits` with `clamped(to:)`, or use
// `CameraUpdate.applied(to:in:limits:)`, which does.
extension Camera {
    /// Zoom levels added by `zoomedIn()` and removed by `zoomedOut()`.
    public static let zoomStep = 1.0

    /// One zoom level closer (`GMSCameraUpdate.zoomIn()`).
    public func zoomedIn() -> Camera { with(zoom: zoom + Self.zoomStep) }

    /// One zoom level further (`GMSCameraUpdate.zoomOut()`).
    public func zoomedOut() -> Camera { with(zoom: zoom - Self.zoomStep) }

    /// At zoom `zoom` (`GMSCameraUpdate.zoom(to:)`).
    public func zoomed(to zoom: Double) -> Camera { with(zoom: zoom) }

    /// `delta` zoom levels closer, negative to zoom out (`GMSCameraUpdate.zoom(by:)`).
    public func zoomed(by delta: Double) -> Camera { with(zoom: zoom + delta) }

    /// `delta` zoom levels closer keeping the ground under `point` at `point` on screen
    /// (`GMSCameraUpdate.zoom(by:at:)`). The new zoom is first clamped to `limits`, so the point stays
    /// put even at the zoom limit; a `targetBounds` clamp or the Mercator edge may still move it.
    /// A point above the horizon zooms about the target.
    public func zoomed(by delta: Double, at point: ScreenPoint, in viewport: Viewport,
                       limits: CameraLimits = .none) -> Camera {
        let zoomedCamera = with(zoom: limits.clampZoom(zoom + delta))
        let before = ViewProjection(camera: self, viewport: viewport)
        let after = ViewProjection(camera: zoomedCamera, viewport: viewport)
        guard let ground = before.screenToMercator(point),
              let seen = after.screenToMercator(point) else { return zoomedCamera.clamped(to: limits) }
        // Move the target by what separates the ground we want from the ground we would see.
        let target = zoomedCamera.mercatorTarget
        let moved = MercatorPoint(x: target.x + ground.x - seen.x, y: target.y + ground.y - seen.y)
        return zoomedCamera.with(target: moved.coordinate).clamped(to: limits)
    }

    /// Looking at `target`, zoom unchanged (`GMSCameraUpdate.setTarget(_:)`).
    public func targeting(_ target: Coordinate) -> Camera { with(target: target) }

    /// Looking at `target` at `zoom` (`GMSCameraUpdate.setTarget(_:zoom:)`).
    public func targeting(_ target: Coordinate, zoom: Double) -> Camera { with(target: target, zoom: zoom) }

    /// The view moved by (`x`, `y`) points, x right and y down on screen (`GMSCameraUpdate.scrollBy(x:y:)`):
    /// the ground that was `x` points right of and `y` points below the target becomes the target.
    /// The offset turns with the bearing (at bearing 90 "up" is east) and is measured in world points
    /// at the camera's zoom (the scale at the target), so it is exact at tilt 0.
    public func scrolled(byX x: Double, y: Double) -> Camera {
        let radians = bearing * .pi / 180
        let worldX = x * cos(radians) - y * sin(radians)
        let worldY = x * sin(radians) + y * cos(radians)
        let target = mercatorTarget
        let moved = MercatorPoint(x: target.x + worldX / worldSize, y: target.y + worldY / worldSize)
        return with(target: moved.coordinate)
    }
}
