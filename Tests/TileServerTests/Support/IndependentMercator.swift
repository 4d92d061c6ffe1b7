import Foundation

/// Web Mercator written again for the camera tests from the EPSG:3857 formulas, with none of the
/// camera library: world pixels at a zoom (256·2^z wide, origin at the north-west corner), the
/// sphere of radius 6,378,137 m, and the flat north-up view (tilt 0, bearing 0).
enum IndependentMercator {
    static let radius = 6_378_137.0
    static let tile = 256.0

    static func worldSize(_ zoom: Double) -> Double { tile * pow(2, zoom) }

    /// World pixel x of a longitude at `zoom`.
    static func x(longitude: Double, zoom: Double) -> Double {
        (longitude + 180) / 360 * worldSize(zoom)
    }

    /// World pixel y of a latitude at `zoom`: (1 − ln(tan φ + sec φ)/π) / 2 of the world.
    static func y(latitude: Double, zoom: Double) -> Double {
        let phi = latitude * .pi / 180
        return (1 - log(tan(phi) + 1 / cos(phi)) / .pi) / 2 * worldSize(zoom)
    }

    /// Longitude of world pixel x at `zoom`.
    static func longitude(x: Double, zoom: Double) -> Double {
        x / worldSize(zoom) * 360 - 180
    }

    /// Latitude of world pixel y at `zoom`: the Gudermannian of the Mercator ordinate.
    static func latitude(y: Double, zoom: Double) -> Double {
        let n = Double.pi * (1 - 2 * y / worldSize(zoom))
        return 2 * atan(exp(n)) * 180 / .pi - 90
    }

    /// Screen point of (latitude, longitude) in a flat north-up view whose target is drawn at `anchor`.
    static func screen(latitude: Double, longitude: Double, target: (lat: Double, lon: Double), zoom: Double,
                       anchor: (x: Double, y: Double)) -> (x: Double, y: Double) {
        (anchor.x + x(longitude: longitude, zoom: zoom) - x(longitude: target.lon, zoom: zoom),
         anchor.y + y(latitude: latitude, zoom: zoom) - y(latitude: target.lat, zoom: zoom))
    }

    /// The largest zoom at which the box (west, south, east, north) fits a room of `width` × `height`.
    static func fittingZoom(west: Double, south: Double, east: Double, north: Double,
                            width: Double, height: Double) -> Double {
        let boxWidth = x(longitude: east, zoom: 0) - x(longitude: west, zoom: 0)
        let boxHeight = y(latitude: south, zoom: 0) - y(latitude: north, zoom: 0)
        return log2(min(width / boxWidth, height / boxHeight))
    }

    /// Degrees of latitude in `metres` along a meridian.
    static func latitudeDegrees(metres: Double) -> Double { metres / radius * 180 / .pi }

    /// Degrees of longitude in `metres` along the parallel of `latitude`.
    static func longitudeDegrees(metres: Double, latitude: Double) -> Double {
        metres / (radius * cos(latitude * .pi / 180)) * 180 / .pi
    }
}
