import Foundation
import Testing
import TileGeometry

@Suite("Screen ↔ ground projection")
struct ViewProjectionTests {
    static let cameras: [Camera] = [
        Camera(latitude: 0, longitude: 0, zoom: 3),
        Camera(target: vancouver, zoom: 11, bearing: 30),
        Camera(target: calgary, zoom: 17, bearing: 0, tilt: 65),
        Camera(target: calgary, zoom: 14, bearing: 210, tilt: 40),
        Camera(latitude: -33.86, longitude: 151.2, zoom: 9.5, bearing: 359, tilt: 30),
        Camera(latitude: 60, longitude: 179.99, zoom: 12, bearing: 90, tilt: 50),
    ]
    static let viewports: [Viewport] = [
        Viewport(width: 800, height: 600),
        Viewport(width: 256, height: 512, scale: 2, padding: EdgeInsets(top: 10, left: 40, bottom: 100, right: 0)),
        Viewport(width: 1000, height: 800, padding: EdgeInsets(bottom: 300)),
    ]

    @Test("the padding offset: bottom padding 300 on an 800-point view puts the target 150 above the middle")
    func paddingOffset() {
        let viewport = Viewport(width: 600, height: 800, padding: EdgeInsets(bottom: 300))
        #expect(viewport.targetPoint == ScreenPoint(x: 300, y: 250))
        #expect(viewport.center.y - viewport.targetPoint.y == 150)
        let camera = Camera(target: calgary, zoom: 12)
        let projection = ViewProjection(camera: camera, viewport: viewport)
        #expect(isClose(projection.groundToScreen(calgary), ScreenPoint(x: 300, y: 250), 1e-9))
        #expect(isClose(projection.screenToGround(ScreenPoint(x: 300, y: 250)), calgary, 1e-9))
        let sides = Viewport(width: 600, height: 800, padding: EdgeInsets(top: 100, left: 200, bottom: 0, right: 0))
        #expect(sides.targetPoint == ScreenPoint(x: 400, y: 450))
    }

    @Test("the target is drawn at the principal point", arguments: cameras, viewports)
    func targetAtPrincipalPoint(camera: Camera, viewport: Viewport) {
        let projection = ViewProjection(camera: camera, viewport: viewport)
        #expect(isClose(projection.groundToScreen(camera.target), viewport.targetPoint, 1e-7))
    }

    @Test("at tilt 0 one screen point is one world point: the world is 1024 points wide at zoom 2")
    func scaleAtTiltZero() {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 2)
        let projection = ViewProjection(camera: camera, viewport: Viewport(width: 2048, height: 1024))
        let west = projection.groundToScreen(Coordinate(latitude: 0, longitude: -180))!
        let east = projection.mercatorToScreen(MercatorPoint(x: 1, y: 0.5))!
        #expect(isClose(east.x - west.x, 1024, 1e-9))
        #expect(isClose(west.x, 1024 - 512, 1e-9))
        let north = projection.groundToScreen(Coordinate(latitude: WebMercator.maxLatitude, longitude: 0))!
        #expect(isClose(north.y, 0, 1e-6))
    }

    @Test("field of view: atan(3/4) ≈ 36.87°, the camera 1.5 view heights from the target")
    func fieldOfView() {
        #expect(isClose(ViewProjection.verticalFieldOfView, 36.86989764584402, 1e-9))
        let projection = ViewProjection(camera: Camera(latitude: 0, longitude: 0, zoom: 5), viewport: Viewport(width: 300, height: 400))
        #expect(isClose(projection.cameraDistance, 600, 1e-9))
    }

    @Test("tilt: the top of the view shows ground farther away than the bottom")
    func tiltPerspective() {
        let viewport = Viewport(width: 800, height: 600)
        let projection = ViewProjection(camera: Camera(target: calgary, zoom: 16, tilt: 60), viewport: viewport)
        let topLeft = projection.screenToMercator(ScreenPoint(x: 0, y: 0))!
        let topRight = projection.screenToMercator(ScreenPoint(x: 800, y: 0))!
        let bottomLeft = projection.screenToMercator(ScreenPoint(x: 0, y: 600))!
        let bottomRight = projection.screenToMercator(ScreenPoint(x: 800, y: 600))!
        let target = projection.camera.mercatorTarget
        #expect(target.y - topLeft.y > bottomLeft.y - target.y)
        #expect(topRight.x - topLeft.x > bottomRight.x - bottomLeft.x)
        // Centre row horizontally keeps scale 1 at the target.
        let right = projection.screenToMercator(ScreenPoint(x: 500, y: 300))!
        #expect(isClose((right.x - target.x) * projection.camera.worldSize, 100, 1e-6))
    }

    @Test("above the horizon there is no ground")
    func horizon() {
        let viewport = Viewport(width: 800, height: 800, padding: EdgeInsets(top: 700))
        let projection = ViewProjection(camera: Camera(target: calgary, zoom: 18, tilt: 65), viewport: viewport)
        #expect(projection.horizonY > 0 && projection.horizonY < 800)
        #expect(projection.screenToGround(ScreenPoint(x: 400, y: 0)) == nil)
        #expect(projection.screenToGround(ScreenPoint(x: 400, y: projection.horizonY - 1)) == nil)
        #expect(projection.screenToGround(ScreenPoint(x: 400, y: projection.horizonY + 1)) != nil)
        #expect(projection.groundTopY > projection.horizonY)
        let flat = ViewProjection(camera: Camera(target: calgary, zoom: 18), viewport: viewport)
        #expect(flat.horizonY == -.infinity && flat.groundTopY == 0)
    }

    @Test("screen → ground → screen round trips over the whole view", arguments: cameras, viewports)
    func screenRoundTrip(camera: Camera, viewport: Viewport) {
        let projection = ViewProjection(camera: camera, viewport: viewport)
        for point in screenGrid(viewport, steps: 24) where point.y >= projection.groundTopY {
            let ground = projection.screenToGround(point)
            #expect(ground != nil)
            guard let ground else { continue }
            #expect(isClose(projection.groundToScreen(ground), point, 1e-6), "\(point)")
            let mercator = projection.screenToMercator(point)!
            #expect(isClose(projection.mercatorToScreen(mercator), point, 1e-7))
        }
    }

    @Test("ground → screen → ground round trips near the target", arguments: cameras)
    func groundRoundTrip(camera: Camera) {
        let projection = ViewProjection(camera: camera, viewport: Viewport(width: 640, height: 480))
        let step = 90 / camera.worldSize * 360   // ±~half a screen
        for row in -4...4 {
            for column in -4...4 {
                let ground = Coordinate(latitude: camera.target.latitude + Double(row) * step * 0.5,
                                        longitude: camera.target.longitude + Double(column) * step).normalized()
                guard let screen = projection.groundToScreen(ground) else { continue }
                #expect(isClose(projection.screenToGround(screen), ground, 1e-9))
            }
        }
    }

    @Test("at zoom 0 in a wide view the longitude wraps; ground picks the copy nearest the target")
    func wrapAtLowZoom() {
        let projection = ViewProjection(camera: Camera(latitude: 0, longitude: 170, zoom: 0), viewport: Viewport(width: 768, height: 256))
        let east = projection.screenToGround(ScreenPoint(x: 384 + 64, y: 128))!
        #expect(isClose(east.longitude, -100, 1e-9))
        #expect(isClose(projection.groundToScreen(east), ScreenPoint(x: 448, y: 128), 1e-9))
    }
}
