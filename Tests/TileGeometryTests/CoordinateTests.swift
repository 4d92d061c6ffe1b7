import Foundation
import Testing
import TileGeometry

@Suite("Coordinates and the Mercator plane")
struct CoordinateTests {
    @Test("latitude is clamped to the Web Mercator square", arguments: [
        (100.0, 85.05112878), (-100, -85.05112878), (85.06, 85.05112878), (45, 45), (-85.05112878, -85.05112878),
    ])
    func latitudeClamp(latitude: Double, expected: Double) {
        #expect(Coordinate.clampedLatitude(latitude) == expected)
        #expect(Coordinate(latitude: latitude, longitude: 0).normalized().latitude == expected)
    }

    @Test("latitude 100 becomes 85.0511…")
    func latitudeHundred() {
        let camera = Camera(latitude: 100, longitude: 0, zoom: 3)
        #expect(isClose(camera.target.latitude, 85.0511, 1e-4))
    }

    @Test("longitude wraps into [-180, 180)", arguments: [
        (480.0, 120.0), (840, 120), (1200, 120), (180, -180), (-180, -180), (-181, 179),
        (0, 0), (359.5, -0.5), (-540, -180), (720, 0), (-1e-15, -1e-15),
    ])
    func longitudeWrap(longitude: Double, expected: Double) {
        #expect(isClose(Coordinate.wrappedLongitude(longitude), expected, 1e-9))
        let wrapped = Coordinate.wrappedLongitude(longitude)
        #expect(wrapped >= -180 && wrapped < 180)
    }

    @Test("a longitude already in range is kept exactly (Tokyo Station stays 139.7671)")
    func longitudeInRangeIsExact() {
        for longitude in [139.7671, -123.11, -180, 179.99999999999997, 0.1] {
            #expect(Coordinate.wrappedLongitude(longitude) == longitude)
        }
    }

    @Test("the camera documents: 480, 840 and 1200 all give 120")
    func longitudeDocuments() {
        for longitude in [480.0, 840, 1200] {
            #expect(Camera(latitude: 0, longitude: longitude, zoom: 1).target.longitude == 120)
        }
    }

    @Test("the world is 256·2^zoom points wide", arguments: [(0.0, 256.0), (1, 512), (2, 1024), (2.5, 1448.1546878700492), (10, 262_144)])
    func worldSize(zoom: Double, expected: Double) {
        #expect(isClose(WebMercator.worldSize(atZoom: zoom), expected, 1e-9))
    }

    @Test("known Mercator points", arguments: [
        (Coordinate(latitude: 0, longitude: 0), MercatorPoint(x: 0.5, y: 0.5)),
        (Coordinate(latitude: WebMercator.maxLatitude, longitude: -180), MercatorPoint(x: 0, y: 0)),
        (Coordinate(latitude: -WebMercator.maxLatitude, longitude: 180), MercatorPoint(x: 1, y: 1)),
        (Coordinate(latitude: 0, longitude: 90), MercatorPoint(x: 0.75, y: 0.5)),
    ])
    func mercatorKnown(coordinate: Coordinate, expected: MercatorPoint) {
        let point = MercatorPoint(coordinate)
        #expect(isClose(point.x, expected.x, 1e-9) && isClose(point.y, expected.y, 1e-9))
    }

    @Test("coordinate → Mercator → coordinate round trips on a grid")
    func mercatorRoundTrip() {
        for latitude in stride(from: -85.0, through: 85, by: 5) {
            for longitude in stride(from: -180.0, through: 180, by: 7.5) {
                let coordinate = Coordinate(latitude: latitude, longitude: longitude)
                let back = MercatorPoint(coordinate).coordinate
                #expect(isClose(back.latitude, latitude, 1e-9) && isClose(back.longitude, longitude, 1e-9))
            }
        }
    }

    @Test("encodes as {lat, lon}")
    func codingKeys() throws {
        let data = try JSONEncoder().encode(Coordinate(latitude: 1.5, longitude: -2))
        let object = try JSONSerialization.jsonObject(with: data) as? [String: Double]
        #expect(object == ["lat": 1.5, "lon": -2])
    }

    @Test("bounds from two coordinates, containment")
    func boundsFromCoordinates() {
        let box = GeoBounds(calgary, vancouver)
        #expect(box == GeoBounds(west: -123.11, south: 49.26, east: -114.05, north: 51.05))
        #expect(box.contains(Coordinate(latitude: 50, longitude: -120)))
        #expect(!box.contains(Coordinate(latitude: 50, longitude: -100)))
        let pacific = GeoBounds(west: 170, south: -10, east: -170, north: 10)
        #expect(pacific.crossesAntimeridian)
        #expect(pacific.contains(Coordinate(latitude: 0, longitude: 179)))
        #expect(pacific.contains(Coordinate(latitude: 0, longitude: -175)))
        #expect(!pacific.contains(Coordinate(latitude: 0, longitude: 0)))
    }
}
