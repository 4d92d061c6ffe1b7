import Testing
import TileGeometry

@Suite("Camera updates (GMSCameraUpdate)")
struct CameraUpdateTests {
    let viewport = Viewport(width: 800, height: 600)
    let camera = Camera(latitude: 49.26, longitude: -123.11, zoom: 11)

    @Test("zoomIn, zoomOut, zoomTo, zoomBy")
    func zooms() {
        #expect(camera.zoomedIn().zoom == 12)
        #expect(camera.zoomedOut().zoom == 10)
        #expect(camera.zoomed(to: 3.5).zoom == 3.5)
        #expect(camera.zoomed(by: -2.25).zoom == 8.75)
        #expect(CameraUpdate.zoomIn.applied(to: camera, in: viewport).zoom == 12)
        #expect(CameraUpdate.zoomOut.applied(to: camera, in: viewport).zoom == 10)
        #expect(CameraUpdate.zoomTo(17).applied(to: camera, in: viewport).zoom == 17)
        #expect(CameraUpdate.zoom(by: 1.5).applied(to: camera, in: viewport).zoom == 12.5)
        #expect(camera.zoomedIn().target == camera.target)
    }

    @Test("updates respect the layer's zoom range")
    func zoomWithLimits() {
        let limits = CameraLimits(minZoom: 10, maxZoom: 15)
        #expect(CameraUpdate.zoomTo(4).applied(to: camera, in: viewport, limits: limits).zoom == 10)
        #expect(CameraUpdate.zoom(by: 9).applied(to: camera, in: viewport, limits: limits).zoom == 15)
    }

    @Test("setTarget, setTarget with zoom, setCamera")
    func targets() {
        let moved = CameraUpdate.setTarget(calgary).applied(to: camera, in: viewport)
        #expect(moved.target == calgary && moved.zoom == 11)
        let zoomed = CameraUpdate.setTarget(calgary, zoom: 6).applied(to: camera, in: viewport)
        #expect(zoomed.target == calgary && zoomed.zoom == 6)
        let other = Camera(target: vancouver, zoom: 4, bearing: 10)
        #expect(CameraUpdate.setCamera(other).applied(to: camera, in: viewport) == other)
        #expect(camera.targeting(Coordinate(latitude: 100, longitude: 480)).target
                == Coordinate(latitude: WebMercator.maxLatitude, longitude: 120))
    }

    @Test("scrollBy(200, 100) makes the ground 200 right and 100 below the target the new target",
          arguments: [0.0, 30, 90, 200])
    func scrollBy(bearing: Double) {
        let start = camera.with(bearing: bearing)
        let projection = ViewProjection(camera: start, viewport: viewport)
        let under = projection.screenToGround(ScreenPoint(x: 400 + 200, y: 300 + 100))!
        let scrolled = CameraUpdate.scrollBy(x: 200, y: 100).applied(to: start, in: viewport)
        #expect(isClose(scrolled.target, under, 1e-9))
        #expect(scrolled.zoom == start.zoom && scrolled.bearing == start.bearing)
        // In world points: 200 east and 100 south at bearing 0.
        if bearing == 0 {
            let before = start.mercatorTarget, after = scrolled.mercatorTarget
            #expect(isClose((after.x - before.x) * start.worldSize, 200, 1e-6))
            #expect(isClose((after.y - before.y) * start.worldSize, 100, 1e-6))
        }
        let back = scrolled.scrolled(byX: -200, y: -100)
        #expect(isClose(back.target, start.target, 1e-9))
    }

    @Test("at bearing 90 scrolling up goes east")
    func scrollUpAtBearing90() {
        let start = camera.with(bearing: 90)
        let scrolled = start.scrolled(byX: 0, y: -100)
        #expect(scrolled.target.longitude > start.target.longitude)
        #expect(isClose(scrolled.target.latitude, start.target.latitude, 1e-9))
        let right = start.scrolled(byX: 100, y: 0)
        #expect(right.target.latitude < start.target.latitude)
        #expect(isClose(right.target.longitude, start.target.longitude, 1e-9))
    }

    @Test("scrolling across the antimeridian wraps the longitude")
    func scrollAcrossAntimeridian() {
        let start = Camera(latitude: 0, longitude: 179.9, zoom: 5)
        let scrolled = start.scrolled(byX: 200, y: 0)
        #expect(scrolled.target.longitude < -170)
        #expect(isClose(scrolled.target.longitude, 179.9 + 200 / start.worldSize * 360 - 360, 1e-9))
    }

    @Test("zoomBy at a point keeps that point fixed on screen", arguments: [
        (0.0, 0.0, 0.0, 1.0), (0, 0, 0, -1.5), (45, 0, 0, 2), (0, 45, 0, 0.7), (120, 60, 100, -0.4), (300, 65, 200, 1),
    ])
    func zoomByAtPoint(bearing: Double, tilt: Double, bottomPadding: Double, delta: Double) {
        let view = Viewport(width: 800, height: 600, padding: EdgeInsets(bottom: bottomPadding))
        let start = Camera(target: calgary, zoom: 17, bearing: bearing, tilt: tilt)
        for point in [ScreenPoint(x: 100, y: 500), ScreenPoint(x: 700, y: 200), ScreenPoint(x: 400, y: 590)] {
            let ground = ViewProjection(camera: start, viewport: view).screenToGround(point)!
            let zoomed = CameraUpdate.zoom(by: delta, at: point).applied(to: start, in: view)
            #expect(isClose(zoomed.zoom, 17 + delta, 1e-12))
            let seen = ViewProjection(camera: zoomed, viewport: view).groundToScreen(ground)
            #expect(isClose(seen, point, 1e-6), "\(point) → \(String(describing: seen))")
        }
    }

    @Test("zoomBy at a point when the tilt limit changes keeps the point fixed")
    func zoomByAtPointTiltChange() {
        let start = Camera(target: vancouver, zoom: 16, tilt: 65)
        let point = ScreenPoint(x: 600, y: 450)
        let ground = ViewProjection(camera: start, viewport: viewport).screenToGround(point)!
        let zoomed = start.zoomed(by: -6, at: point, in: viewport)
        #expect(zoomed.tilt == 30)
        #expect(isClose(ViewProjection(camera: zoomed, viewport: viewport).groundToScreen(ground), point, 1e-6))
    }

    @Test("zoomBy at a point stops at the zoom limit and still keeps the point")
    func zoomByAtPointLimited() {
        let limits = CameraLimits(minZoom: 10, maxZoom: 12)
        let point = ScreenPoint(x: 50, y: 60)
        let ground = ViewProjection(camera: camera, viewport: viewport).screenToGround(point)!
        let zoomed = CameraUpdate.zoom(by: 5, at: point).applied(to: camera, in: viewport, limits: limits)
        #expect(zoomed.zoom == 12)
        #expect(isClose(ViewProjection(camera: zoomed, viewport: viewport).groundToScreen(ground), point, 1e-6))
    }

    @Test("zoomBy at a point above the horizon zooms about the target")
    func zoomByAboveHorizon() {
        let view = Viewport(width: 800, height: 800, padding: EdgeInsets(top: 700))
        let start = Camera(target: calgary, zoom: 18, tilt: 65)
        let zoomed = start.zoomed(by: 1, at: ScreenPoint(x: 400, y: 0), in: view)
        #expect(zoomed.target == start.target && zoomed.zoom == 19)
    }
}
