import TileGeometry

/// Whether two doubles differ by at most `tolerance`.
func isClose(_ a: Double, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    abs(a - b) <= tolerance
}

/// Whether two screen points are within `tolerance` points on both axes.
func isClose(_ a: ScreenPoint?, _ b: ScreenPoint, _ tolerance: Double = 1e-6) -> Bool {
    guard let a else { return false }
    return isClose(a.x, b.x, tolerance) && isClose(a.y, b.y, tolerance)
}

/// Whether two coordinates are within `tolerance` degrees, longitudes compared round the world.
func isClose(_ a: Coordinate?, _ b: Coordinate, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    let dLon = Coordinate.wrappedLongitude(a.longitude - b.longitude)
    return isClose(a.latitude, b.latitude, tolerance) && abs(dLon) <= tolerance
}

/// A grid of screen points covering `viewport`, `steps` + 1 per side, edges included.
func screenGrid(_ viewport: Viewport, steps: Int = 16) -> [ScreenPoint] {
    (0...steps).flatMap { row in
        (0...steps).map { column in
            ScreenPoint(x: viewport.width * Double(column) / Double(steps),
                        y: viewport.height * Double(row) / Double(steps))
        }
    }
}

let vancouver = Coordinate(latitude: 49.26, longitude: -123.11)
let calgary = Coordinate(latitude: 51.05, longitude: -114.05)
