import TileGeometry

/// The `point=X,Y` and `coordinate=LON,LAT` of a `/camera` request: screen points to look up on the
/// ground and ground to look up on screen, each repeated up to `maxCount` times.
struct CameraProbes: Sendable {
    /// Screen points, in points from the top-left corner, in the order given.
    var points: [ScreenPoint] = []
    /// Coordinates, as given (normalized when answered), in the order given.
    var coordinates: [Coordinate] = []

    static let pointName = "point"
    static let coordinateName = "coordinate"
    /// Most values of each parameter one request may carry.
    static let maxCount = 256

    /// Reads `item` when it is `point` or `coordinate`; false for any other parameter.
    mutating func read(_ item: (name: String, value: String)) throws(StaticMapError) -> Bool {
        switch item.name {
        case Self.pointName:
            guard points.count < Self.maxCount else { throw .tooMany(name: Self.pointName, limit: Self.maxCount) }
            let values = try StaticNumber.parseList(Substring(item.value), names: ["point x", "point y"], required: 2,
                                                    list: Self.pointName, expected: "{x},{y}").get()
            points.append(ScreenPoint(x: values[0], y: values[1]))
        case Self.coordinateName:
            guard coordinates.count < Self.maxCount else {
                throw .tooMany(name: Self.coordinateName, limit: Self.maxCount)
            }
            let values = try StaticNumber.parseList(Substring(item.value), names: ["coordinate lon", "coordinate lat"],
                                                    required: 2, list: Self.coordinateName, expected: "{lon},{lat}").get()
            coordinates.append(Coordinate(latitude: values[1], longitude: values[0]))
        default:
            return false
        }
        return true
    }

    /// Throws when a point lies outside a view of `width` × `height` points (edges included).
    func check(width: Int, height: Int) throws(StaticMapError) {
        for point in points where !(0...Double(width)).contains(point.x) || !(0...Double(height)).contains(point.y) {
            throw .pointOutsideView(name: Self.pointName, x: point.x, y: point.y, width: width, height: height)
        }
    }
}
