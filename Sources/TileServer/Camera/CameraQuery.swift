import TileGeometry

/// The query parameters that place a view's camera, read the same way by `/static` and `/camera`
/// (SPEC "Camera API": "so a view's PNG and its camera JSON always agree"): `padding`, `fitPadding`,
/// `bounds`, `span` and the repeated `update`.
struct CameraQuery: Sendable {
    /// Points kept clear at each edge: the map's padding.
    var padding = EdgeInsets.zero
    /// The insets an `auto` fit (and a `fit:` update without its own padding) keeps clear besides the
    /// map padding; nil when not given.
    var fitPadding: EdgeInsets?
    /// The box an `auto` view fits.
    var bounds: GeoBounds?
    /// Metres north–south and east–west to show around the target.
    var span: (latitudinal: Double, longitudinal: Double)?
    /// The updates, in the order given.
    var updates: [ViewUpdate] = []

    static let paddingName = "padding"
    static let fitPaddingName = "fitPadding"
    static let boundsName = "bounds"
    static let spanName = "span"
    static let updateName = "update"
    /// Most `update=` values one request may carry.
    static let maxUpdates = 32

    /// Reads `item` when it is one of these parameters (a later one replaces an earlier one, except
    /// `update`, which adds); false for any other parameter.
    mutating func read(_ item: (name: String, value: String)) throws(StaticMapError) -> Bool {
        switch item.name {
        case Self.paddingName: padding = try Self.padding(Substring(item.value), name: Self.paddingName)
        case Self.fitPaddingName: fitPadding = try Self.padding(Substring(item.value), name: Self.fitPaddingName)
        case Self.boundsName: bounds = try Self.bounds(Substring(item.value))
        case Self.spanName: span = try Self.span(Substring(item.value))
        case Self.updateName:
            guard updates.count < Self.maxUpdates else { throw .tooMany(name: Self.updateName, limit: Self.maxUpdates) }
            updates.append(try ViewUpdateParser.parse(item.value, index: updates.count + 1))
        default: return false
        }
        return true
    }

    /// `{all}` or `{top},{right},{bottom},{left}` (CSS order), in points, none negative.
    static func padding(_ text: Substring, name: String) throws(StaticMapError) -> EdgeInsets {
        let names = ["top", "right", "bottom", "left"].map { "\(name) \($0)" }
        let expected = "one number or {top},{right},{bottom},{left}"
        let values = try StaticNumber.parseList(text, names: names, required: 1, list: name, expected: expected).get()
        guard values.count == 1 || values.count == 4 else {
            throw .wrongCount(name: name, text: String(text), expected: expected)
        }
        if let negative = values.first(where: { $0 < 0 }) { throw .negativePadding(name: name, value: negative) }
        if values.count == 1 { return EdgeInsets(all: values[0]) }
        return EdgeInsets(top: values[0], left: values[3], bottom: values[2], right: values[1])
    }

    /// `{west},{south},{east},{north}` in degrees; west > east crosses the antimeridian.
    static func bounds(_ text: Substring) throws(StaticMapError) -> GeoBounds {
        let expected = "{west},{south},{east},{north}"
        let values = try StaticNumber.parseList(text, names: ["west", "south", "east", "north"], required: 4,
                                                list: "bounds", expected: expected).get()
        let box = GeoBounds(west: values[0], south: values[1], east: values[2], north: values[3])
        let halfTurn = Coordinate.degreesPerTurn / 2, quarterTurn = halfTurn / 2
        for (name, longitude) in [("west", box.west), ("east", box.east)] where abs(longitude) > halfTurn {
            throw .badBounds("\(name) \(longitude) is outside -180…180")
        }
        for (name, latitude) in [("south", box.south), ("north", box.north)] where abs(latitude) > quarterTurn {
            throw .badBounds("\(name) \(latitude) is outside -90…90")
        }
        guard box.south <= box.north else {
            throw .badBounds("south \(box.south) is north of north \(box.north)")
        }
        return box
    }

    /// `{latitudinal metres},{longitudinal metres}`, both above zero.
    static func span(_ text: Substring) throws(StaticMapError) -> (latitudinal: Double, longitudinal: Double) {
        let values = try StaticNumber.parseList(text, names: ["span latitudinal metres", "span longitudinal metres"],
                                                required: 2, list: spanName, expected: "{LATM},{LONM} in metres").get()
        if let bad = values.first(where: { $0 <= 0 }) { throw .badSpan("\(bad) metres must be above zero") }
        return (values[0], values[1])
    }
}
