import Foundation

/// Screen ↔ ground for one camera in one viewport: a pinhole camera over the flat Mercator plane.
///
/// Model (the one MapLibre GL and Mapbox GL use, so a `/static` view matches what those clients draw):
/// - vertical field of view `verticalFieldOfView` = atan(3/4) ≈ 36.87°, which puts the camera
///   1.5 view heights from the target; a moderate, "normal lens" perspective at the 65° tilt limit;
/// - the camera looks at the target from `cameraDistance` (in world points at the camera's zoom),
///   which equals the focal length, so at tilt 0 one point on screen is one world point at the
///   target: the scale matches the zoom exactly;
/// - the target is drawn at the centre of the padded rectangle (the principal point); padding moves
///   it but does not change the perspective (the distance uses the whole view height);
/// - tilt pitches the camera back about the target: the bottom of the screen shows near ground, the
///   top far ground, and above `horizonY` the sky (no ground).
/// All members are precomputed so `screenToMercator`/`mercatorToScreen` do no allocation and no
/// transcendental math: call them per pixel or per row.
public struct ViewProjection: Sendable {
    /// The camera this projection draws.
    public let camera: Camera
    /// The view it draws into.
    public let viewport: Viewport
    /// Camera-to-target distance and focal length, in points (= world points at the camera zoom).
    public let cameraDistance: Double
    /// Screen y of the horizon: rays at or above it miss the ground (-infinity at tilt 0).
    public let horizonY: Double
    /// Top of the ground drawn in the view: the larger of 0 and the row whose ray is
    /// `maxRayAngleFromNadir` from straight down; rows above it are sky to a renderer.
    public let groundTopY: Double

    @usableFromInline let targetX, targetY, worldSize: Double
    @usableFromInline let principalX, principalY: Double
    @usableFromInline let cosBearing, sinBearing, cosTilt, sinTilt: Double

    /// The vertical field of view in degrees: atan(0.75) = 2·atan(1/3) ≈ 36.87°, MapLibre GL's default
    /// (camera altitude 1.5 view heights, Mapbox GL's historical `altitude = 1.5`).
    public static let verticalFieldOfView = atan(0.75) * 180 / .pi
    /// Rays steeper than this many degrees from the nadir are not drawn (`groundTopY`):
    /// ground further away than ~11 camera heights is a sliver of hardly visible tiles.
    public static let maxRayAngleFromNadir = 85.0
    /// Relative margin below which a ray is treated as parallel to the ground.
    @usableFromInline static let parallelTolerance = 1e-9

    /// The projection of `camera` into `viewport`.
    public init(camera: Camera, viewport: Viewport) {
        self.camera = camera
        self.viewport = viewport
        let halfAngle = Self.verticalFieldOfView / 2 * .pi / 180
        cameraDistance = viewport.height / 2 / tan(halfAngle)
        let target = camera.mercatorTarget
        targetX = target.x
        targetY = target.y
        worldSize = camera.worldSize
        let principal = viewport.targetPoint
        principalX = principal.x
        principalY = principal.y
        let bearing = camera.bearing * .pi / 180
        let tilt = camera.tilt * .pi / 180
        cosBearing = cos(bearing)
        sinBearing = sin(bearing)
        cosTilt = cos(tilt)
        sinTilt = sin(tilt)
        horizonY = sinTilt == 0 ? -.infinity : principal.y - cameraDistance * cosTilt / sinTilt
        let steepest = (Self.maxRayAngleFromNadir - camera.tilt) * .pi / 180
        groundTopY = min(max(0, principal.y - cameraDistance * tan(steepest)), viewport.height)
    }

    /// The point of the unit Mercator plane seen at `point`, or nil above the horizon.
    /// x is not wrapped (continuous across the antimeridian); y may lie beyond the Mercator square.
    @inlinable
    public func screenToMercator(_ point: ScreenPoint) -> MercatorPoint? {
        let dx = point.x - principalX
        let dy = point.y - principalY
        // Ray through the pixel meets the ground at parameter s (s = 1 at the target row when tilt = 0).
        let denominator = cameraDistance * cosTilt + dy * sinTilt
        guard denominator > cameraDistance * Self.parallelTolerance else { return nil }
        let s = cameraDistance * cosTilt / denominator
        // Ground offset from the target in the view's frame: a to the right, b towards the viewer.
        let a = s * dx
        let b = s * dy * cosTilt + cameraDistance * sinTilt * (1 - s)
        // Rotate by the bearing into world axes (x east, y south).
        let worldX = a * cosBearing - b * sinBearing
        let worldY = a * sinBearing + b * cosBearing
        return MercatorPoint(x: targetX + worldX / worldSize, y: targetY + worldY / worldSize)
    }

    /// Where `mercator` is drawn, or nil when it lies behind the camera. x is used as given
    /// (no wrapping to the copy of the world nearest the target; see `groundToScreen`).
    @inlinable
    public func mercatorToScreen(_ mercator: MercatorPoint) -> ScreenPoint? {
        let worldX = (mercator.x - targetX) * worldSize
        let worldY = (mercator.y - targetY) * worldSize
        let a = worldX * cosBearing + worldY * sinBearing
        let b = -worldX * sinBearing + worldY * cosBearing
        let depth = cameraDistance - b * sinTilt
        guard depth > cameraDistance * Self.parallelTolerance else { return nil }
        let scale = cameraDistance / depth
        return ScreenPoint(x: principalX + a * scale, y: principalY + b * cosTilt * scale)
    }

    /// The coordinate seen at `point` (longitude wrapped into [-180, 180)), or nil above the horizon.
    public func screenToGround(_ point: ScreenPoint) -> Coordinate? {
        guard let mercator = screenToMercator(point) else { return nil }
        let coordinate = mercator.coordinate
        return Coordinate(latitude: coordinate.latitude,
                          longitude: Coordinate.wrappedLongitude(coordinate.longitude))
    }

    /// Where `coordinate` is drawn, taking the copy of the world nearest the target
    /// (longitudes within 180° of it); nil when it lies behind the camera.
    public func groundToScreen(_ coordinate: Coordinate) -> ScreenPoint? {
        var mercator = MercatorPoint(coordinate)
        mercator.x = targetX + (mercator.x - targetX) - ((mercator.x - targetX) + 0.5).rounded(.down)
        return mercatorToScreen(mercator)
    }
}
