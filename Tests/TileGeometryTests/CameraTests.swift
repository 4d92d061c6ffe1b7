import Foundation
import Testing
import TileGeometry

@Suite("Camera clamps and limits")
struct CameraTests {
    @Test("bearing is taken modulo 360", arguments: [
        (0.0, 0.0), (90, 90), (360, 0), (450, 90), (-90, 270), (-720, 0), (719.5, 359.5),
    ])
    func bearing(value: Double, expected: Double) {
        #expect(Camera(latitude: 0, longitude: 0, zoom: 3, bearing: value).bearing == expected)
    }

    @Test("maximum tilt: 30° at zoom ≤ 10, 65° at ≥ 16, linear between", arguments: [
        (0.0, 30.0), (5, 30), (10, 30), (11, 35.833333333333336), (13, 47.5), (15, 59.166666666666664),
        (16, 65), (18, 65), (30, 65),
    ])
    func maxTilt(zoom: Double, expected: Double) {
        #expect(isClose(Camera.maxTilt(atZoom: zoom), expected, 1e-9))
        #expect(isClose(Camera(latitude: 0, longitude: 0, zoom: zoom, tilt: 90).tilt, expected, 1e-9))
    }

    @Test("tilt within the limit is kept, negative tilt becomes 0")
    func tiltKept() {
        #expect(Camera(latitude: 0, longitude: 0, zoom: 17, tilt: 45).tilt == 45)
        #expect(Camera(latitude: 0, longitude: 0, zoom: 17, tilt: -5).tilt == 0)
        #expect(Camera(latitude: 0, longitude: 0, zoom: 8, tilt: 45).tilt == 30)
    }

    @Test("zoom stays within the camera's own range")
    func ownZoomRange() {
        #expect(Camera(latitude: 0, longitude: 0, zoom: -3).zoom == 0)
        #expect(Camera(latitude: 0, longitude: 0, zoom: 99).zoom == Double(TileCoordinate.maxZoom))
    }

    @Test("setMinZoom(10, maxZoom: 15) turns zoom 4 into 10 and 18 into 15", arguments: [
        (4.0, 10.0), (18, 15), (12.5, 12.5), (10, 10), (15, 15),
    ])
    func zoomLimits(zoom: Double, expected: Double) {
        let limits = CameraLimits(minZoom: 10, maxZoom: 15)
        #expect(Camera(latitude: 0, longitude: 0, zoom: zoom).clamped(to: limits).zoom == expected)
    }

    @Test("a zoom clamp limits the tilt again")
    func tiltAfterZoomClamp() {
        let camera = Camera(latitude: 0, longitude: 0, zoom: 18, tilt: 65)
        #expect(camera.clamped(to: CameraLimits(minZoom: 0, maxZoom: 10)).tilt == 30)
    }

    @Test("min zoom above max zoom is lowered to it")
    func invertedLimits() {
        let limits = CameraLimits(minZoom: 12, maxZoom: 8)
        #expect(limits.minZoom == 8 && limits.maxZoom == 8)
        #expect(limits.tileZoomRange == 8...8)
        #expect(CameraLimits(minZoom: 2.5, maxZoom: 7.5).tileZoomRange == 3...7)
    }

    @Test("targetBounds clamps the target", arguments: [
        (Coordinate(latitude: 50, longitude: 10), Coordinate(latitude: 50, longitude: 10)),
        (Coordinate(latitude: 70, longitude: 10), Coordinate(latitude: 60, longitude: 10)),
        (Coordinate(latitude: 20, longitude: -50), Coordinate(latitude: 35, longitude: -10)),
        (Coordinate(latitude: 40, longitude: 100), Coordinate(latitude: 40, longitude: 30)),
        (Coordinate(latitude: 40, longitude: 175), Coordinate(latitude: 40, longitude: 30)),
        (Coordinate(latitude: 40, longitude: -100), Coordinate(latitude: 40, longitude: -10)),
    ])
    func targetBounds(target: Coordinate, expected: Coordinate) {
        let limits = CameraLimits(minZoom: 0, maxZoom: 18, targetBounds: GeoBounds(west: -10, south: 35, east: 30, north: 60))
        #expect(Camera(target: target, zoom: 5).clamped(to: limits).target == expected)
    }

    @Test("targetBounds across the antimeridian", arguments: [
        (179.0, 179.0), (-175, -175), (160, 170), (0, -170), (-100, -170), (100, 170),
    ])
    func targetBoundsAntimeridian(longitude: Double, expected: Double) {
        let limits = CameraLimits(targetBounds: GeoBounds(west: 170, south: -10, east: -170, north: 10))
        #expect(Camera(latitude: 0, longitude: longitude, zoom: 4).clamped(to: limits).target.longitude == expected)
    }

    @Test("with(...) keeps the other values")
    func with() {
        let camera = Camera(latitude: 10, longitude: 20, zoom: 12, bearing: 30, tilt: 20)
        let moved = camera.with(zoom: 14)
        #expect(moved.target == camera.target && moved.bearing == 30 && moved.tilt == 20 && moved.zoom == 14)
    }

    @Test("encodes in the /static JSON shape and clamps when decoding")
    func coding() throws {
        let camera = Camera(latitude: 49.9, longitude: -118.6, zoom: 6.2)
        let data = try JSONEncoder().encode(camera)
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Any]
        #expect(object?["zoom"] as? Double == 6.2)
        #expect((object?["target"] as? [String: Double]) == ["lat": 49.9, "lon": -118.6])
        #expect(try JSONDecoder().decode(Camera.self, from: data) == camera)
        let json = Data(#"{"target": {"lat": 100, "lon": 480}, "zoom": 4, "tilt": 50}"#.utf8)
        let decoded = try JSONDecoder().decode(Camera.self, from: json)
        #expect(decoded.target == Coordinate(latitude: WebMercator.maxLatitude, longitude: 120))
        #expect(decoded.tilt == 30 && decoded.bearing == 0)
    }
}
