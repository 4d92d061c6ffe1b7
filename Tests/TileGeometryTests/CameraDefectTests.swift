import Foundation
import Testing
import TileGeometry

/// Regressions for the camera defects of issue 17.
@Suite("Camera defects (issue 17)")
struct CameraDefectTests {
    let viewport = Viewport(width: 800, height: 600)
    let start = Camera(latitude: 0, longitude: 0, zoom: 3)

    @Test("setCamera clamps the zoom to the layer before the tilt: zoom 8 tilt 60 at minZoom 16 keeps tilt 60")
    func setCameraClampsZoomBeforeTilt() {
        let limits = CameraLimits(minZoom: 16, maxZoom: 20)
        let moved = CameraUpdate.setCamera(target: calgary, zoom: 8, tilt: 60).applied(to: start, in: viewport, limits: limits)
        #expect(moved.zoom == 16)
        #expect(moved.tilt == 60)  // 65° allowed at zoom 16; it was 30, the limit of zoom 8
        #expect(Camera(target: calgary, zoom: 8, tilt: 60, limits: limits) == moved)
        // Above the limit of the final zoom, the tilt is clamped to that limit.
        let steep = CameraUpdate.setCamera(target: calgary, zoom: 8, tilt: 80).applied(to: start, in: viewport, limits: limits)
        #expect(steep.tilt == 65)
        // Lowered by maxZoom, the tilt follows the lower zoom's limit.
        let lowered = CameraUpdate.setCamera(target: calgary, zoom: 18, tilt: 60)
            .applied(to: start, in: viewport, limits: CameraLimits(minZoom: 0, maxZoom: 10))
        #expect(lowered.zoom == 10 && lowered.tilt == 30)
        // A camera already made keeps its own values.
        let other = Camera(target: vancouver, zoom: 17, bearing: 10, tilt: 50)
        #expect(CameraUpdate.setCamera(other).applied(to: start, in: viewport) == other)
    }

    @Test("the target of setCamera is wrapped and clamped into targetBounds")
    func setCameraTarget() {
        let limits = CameraLimits(targetBounds: GeoBounds(west: -10, south: 35, east: 30, north: 60))
        let moved = CameraUpdate.setCamera(target: Coordinate(latitude: 40, longitude: 380), zoom: 5)
            .applied(to: start, in: viewport, limits: limits)
        #expect(moved.target == Coordinate(latitude: 40, longitude: 20))
    }

    /// Screen points of the box's north-west and south-east corners in `camera`'s view.
    func corners(_ box: GeoBounds, _ camera: Camera) -> [ScreenPoint] {
        let projection = ViewProjection(camera: camera, viewport: viewport)
        return [Coordinate(latitude: box.north, longitude: box.west),
                Coordinate(latitude: box.south, longitude: box.east)].map { projection.groundToScreen($0)! }
    }

    @Test("a fit raised to minZoom overflows the view; lowered to maxZoom it leaves room to spare")
    func fitClampDirections() {
        let box = GeoBounds(vancouver, calgary)
        let free = Camera.fitting(box, in: viewport)
        #expect(free.zoom > 5 && free.zoom < 7)

        let raised = Camera.fitting(box, in: viewport, limits: CameraLimits(minZoom: 8, maxZoom: 20))
        #expect(raised.zoom == 8)
        let outside = corners(box, raised)
        #expect(outside[0].x < 0 && outside[1].x > viewport.width)

        let lowered = Camera.fitting(box, in: viewport, limits: CameraLimits(minZoom: 0, maxZoom: 4))
        #expect(lowered.zoom == 4)
        let inside = corners(box, lowered)
        #expect(inside[0].x > 100 && inside[1].x < viewport.width - 100)
        #expect(inside[0].y > 100 && inside[1].y < viewport.height - 100)
    }

    @Test("the largest tilt is continuous in the zoom: no step anywhere from zoom 0 to 22")
    func maxTiltIsContinuous() {
        let step = 0.001
        let slope = (Camera.highZoomMaxTilt - Camera.lowZoomMaxTilt) / (Camera.highTiltZoom - Camera.lowTiltZoom)
        for index in 0..<22_000 {
            let zoom = Double(index) * step
            let change = Camera.maxTilt(atZoom: zoom + step) - Camera.maxTilt(atZoom: zoom)
            #expect(change >= 0 && change <= slope * step + 1e-9, "zoom \(zoom)")
        }
    }

    @Test("the visible region of a flat north-up view is its four corners, near at the bottom")
    func visibleRegion() throws {
        let camera = Camera(target: calgary, zoom: 9)
        let projection = ViewProjection(camera: camera, viewport: viewport)
        let region = try #require(VisibleRegion(projection: projection))
        #expect(isClose(region.farLeft, projection.screenToGround(ScreenPoint(x: 0, y: 0))!))
        #expect(isClose(region.farRight, projection.screenToGround(ScreenPoint(x: 800, y: 0))!))
        #expect(isClose(region.nearRight, projection.screenToGround(ScreenPoint(x: 800, y: 600))!))
        #expect(isClose(region.nearLeft, projection.screenToGround(ScreenPoint(x: 0, y: 600))!))
        #expect(region.farLeft.latitude > region.nearLeft.latitude && region.nearRight.longitude > region.nearLeft.longitude)
        // Tilted, the far edge is wider than the near edge.
        let tilted = try #require(VisibleRegion(projection: ViewProjection(camera: camera.with(zoom: 16, tilt: 60), viewport: viewport)))
        #expect(tilted.farRight.longitude - tilted.farLeft.longitude > tilted.nearRight.longitude - tilted.nearLeft.longitude)
    }

    @Test("a span of metres gives the zoom at which it fills the padded view's tighter side")
    func span() {
        // At the equator, 1° of latitude is earthRadius·π/180 metres; 2° across a 512-point-tall room.
        let metres = Camera.earthRadius * .pi / 180 * 2
        let zoom = Camera.zoom(showingLatitudinalMeters: metres, longitudinalMeters: 1, around: Coordinate(latitude: 0, longitude: 0),
                               in: Viewport(width: 2000, height: 612, padding: EdgeInsets(top: 100)))
        let mercatorHalfHeight = MercatorPoint(Coordinate(latitude: -1, longitude: 0)).y - 0.5
        #expect(isClose(zoom, log2(256 / (mercatorHalfHeight * 256)), 1e-9))
        #expect(Camera.zoom(showingLatitudinalMeters: 0, longitudinalMeters: 0, around: calgary, in: viewport) == .infinity)
    }
}
