import TileGeometry

/// The query of a `/static` request: `padding`, `bounds` (for `auto`), and whatever else the
/// layer's own variables take (`?floor=2`).
struct StaticQuery {
    /// Points kept clear at each edge.
    var padding = EdgeInsets.zero
    /// The box an `auto` view fits.
    var bounds: GeoBounds?
    /// The other parameters, for `Layer.variableValues(from:)`.
    var layerItems: [(name: String, value: String)] = []

    static let paddingName = "padding"
    static let boundsName = "bounds"

    /// Reads `items`; a later `padding` or `bounds` replaces an earlier one.
    init(_ items: [(name: String, value: String)]) throws(StaticMapError) {
        for item in items {
            switch item.name {
            case Self.paddingName: padding = try Self.padding(Substring(item.value))
            case Self.boundsName: bounds = try Self.bounds(Substring(item.value))
            default: layerItems.append(item)
            }
        }
    }

    /// `{all}` or `{top},{right},{bottom},{left}` (CSS order), in points, none negative.
    static func padding(_ text: Substring) throws(StaticMapError) -> EdgeInsets {
        let names = ["padding top", "padding right", "padding bottom", "padding left"]
        let expected = "one number or {top},{right},{bottom},{left}"
        let values = try StaticNumber.parseList(text, names: names, required: 1, list: "padding", expected: expected).get()
        guard values.count == 1 || values.count == 4 else {
            throw .wrongCount(name: "padding", text: String(text), expected: expected)
        }
        if let negative = values.first(where: { $0 < 0 }) { throw .negativePadding(negative) }
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
}
