import Testing
import TileGeometry

@Suite("fitBounds")
struct FitBoundsTests {
    /// Screen positions of the box's corners in the fitted view.
    func corners(_ bounds: GeoBounds, _ camera: Camera, _ viewport: Viewport) -> [ScreenPoint] {
        let projection = ViewProjection(camera: camera, viewport: viewport)
        return [Coordinate(latitude: bounds.north, longitude: bounds.west),
                Coordinate(latitude: bounds.south, longitude: bounds.east)].map { projection.groundToScreen($0)! }
    }

    @Test("Vancouver and Calgary fitted into one view with padding 50", arguments: [
        (400.0, 600.0), (800, 600), (1024, 768), (300, 300),
    ])
    func vancouverCalgary(width: Double, height: Double) {
        let viewport = Viewport(width: width, height: height)
        let bounds = GeoBounds(vancouver, calgary)
        let camera = CameraUpdate.fit(bounds, withPadding: 50).applied(to: Camera(latitude: 0, longitude: 0, zoom: 2, bearing: 40, tilt: 20), in: viewport)
        #expect(camera.bearing == 0 && camera.tilt == 0)
        let projection = ViewProjection(camera: camera, viewport: viewport)
        let cities = [vancouver, calgary].map { projection.groundToScreen($0)! }
        for city in cities {
            #expect(city.x >= 50 - 1e-6 && city.x <= width - 50 + 1e-6)
            #expect(city.y >= 50 - 1e-6 && city.y <= height - 50 + 1e-6)
        }
        // The largest zoom: the box touches the padding on one axis.
        let (west, east) = (min(cities[0].x, cities[1].x), max(cities[0].x, cities[1].x))
        let (north, south) = (min(cities[0].y, cities[1].y), max(cities[0].y, cities[1].y))
        #expect(isClose(west, 50, 1e-6) || isClose(north, 50, 1e-6))
        // Centred.
        #expect(isClose((west + east) / 2, width / 2, 1e-6) && isClose((north + south) / 2, height / 2, 1e-6))
    }

    @Test("per-edge insets and the viewport's padding both count; the box is centred in what is left")
    func edgeInsets() {
        let viewport = Viewport(width: 800, height: 600, padding: EdgeInsets(top: 0, left: 0, bottom: 100, right: 0))
        let insets = EdgeInsets(top: 40, left: 200, bottom: 10, right: 20)
        let bounds = GeoBounds(west: 5, south: 45, east: 15, north: 55)
        let camera = CameraUpdate.fit(bounds, with: insets).applied(to: Camera(latitude: 0, longitude: 0, zoom: 0), in: viewport)
        let points = corners(bounds, camera, viewport)
        let room = (left: 200.0, top: 40.0, right: 800.0 - 20, bottom: 600.0 - 110)
        #expect(points[0].x >= room.left - 1e-6 && points[1].x <= room.right + 1e-6)
        #expect(points[0].y >= room.top - 1e-6 && points[1].y <= room.bottom + 1e-6)
        #expect(isClose(points[0].x, room.left, 1e-6) || isClose(points[0].y, room.top, 1e-6))
        #expect(isClose((points[0].x + points[1].x) / 2, (room.left + room.right) / 2, 1e-6))
        #expect(isClose((points[0].y + points[1].y) / 2, (room.top + room.bottom) / 2, 1e-6))
    }

    @Test("a box across the antimeridian")
    func antimeridian() {
        let viewport = Viewport(width: 512, height: 512)
        let camera = Camera.fitting(GeoBounds(west: 170, south: -5, east: -170, north: 5), in: viewport)
        #expect(isClose(abs(camera.target.longitude), 180, 1e-9) && isClose(camera.target.latitude, 0, 1e-9))
        // 20° of longitude fill 512 points: 512 / (20 / 360) = 256 · 2^zoom.
        #expect(isClose(camera.zoom, 5.169925001442312, 1e-9))
    }

    @Test("the zoom is clamped to the layer's range; a single point gets maxZoom")
    func limits() {
        let viewport = Viewport(width: 400, height: 400)
        let limits = CameraLimits(minZoom: 10, maxZoom: 15)
        #expect(Camera.fitting(GeoBounds(vancouver, calgary), in: viewport, limits: limits).zoom == 10)
        let point = Camera.fitting(GeoBounds(calgary, calgary), in: viewport, limits: limits)
        #expect(point.zoom == 15 && isClose(point.target, calgary, 1e-9))
        let noRoom = Camera.fitting(GeoBounds(vancouver, calgary), in: viewport, insets: EdgeInsets(all: 250), limits: limits)
        #expect(noRoom.zoom == 10)
    }

    @Test("the default fit padding is 64 points")
    func defaultPadding() {
        let viewport = Viewport(width: 600, height: 600)
        let bounds = GeoBounds(west: -10, south: -10, east: 10, north: 10)
        let camera = CameraUpdate.fit(bounds).applied(to: Camera(latitude: 0, longitude: 0, zoom: 0), in: viewport)
        let points = corners(bounds, camera, viewport)
        #expect(isClose(min(points[0].x, points[0].y), 64, 1e-6))
    }

    @Test("the whole world fits at zoom 0 in a 256-point view")
    func world() {
        let camera = Camera.fitting(WebMercator.worldBounds, in: Viewport(width: 256, height: 256))
        #expect(isClose(camera.zoom, 0, 1e-9))
        #expect(isClose(camera.target, Coordinate(latitude: 0, longitude: 0), 1e-9))
    }
}
