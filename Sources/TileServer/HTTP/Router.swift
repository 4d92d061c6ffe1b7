import TileProviders

/// Maps decoded path segments to a `Route`. Pure: no I/O, no layer lookups.
public enum Router {
    /// Longest decimal number accepted as a coordinate; longer ones are out of every range.
    static let maxCoordinateDigits = 10

    /// The route for `segments` (as `HTTPRequest.pathSegments`).
    public static func match(_ segments: [String]) -> RouteMatch {
        if segments.first == "admin" { return admin(Array(segments.dropFirst())) }
        if segments.first == StaticRouteParser.prefix { return StaticRouteParser.match(segments) }
        if segments.first == CameraRouteParser.prefix { return CameraRouteParser.match(segments) }
        if segments.first == WMTSRoute.prefix { return WMTSRoute.match(segments) }
        if segments.first == OGCAPIRoute.prefix { return OGCAPIRoute.match(segments) }
        switch segments.count {
        case 0:
            return .route(.index)
        case 1:
            let name = segments[0]
            if name == "healthz" { return .route(.health) }
            if name == "readyz" { return .route(.readiness) }
            if name == "metrics" { return .route(.metrics) }
            if name == "index.json" { return .route(.tileJSONIndex) }
            if name.hasSuffix(".json") {
                let layer = String(name.dropLast(5))
                if isLayerName(layer) { return .route(.tileJSON(layer: layer)) }
            }
            return .notFound("no such path")
        case 2 ... 4 where segments[0] == "assets":
            return .route(.asset(path: Array(segments.dropFirst())))
        case 3 where !startsWithLetter(segments[0]):
            return tile(layer: nil, segments[0], segments[1], segments[2])
        case 4 where isLayerName(segments[0]):
            return tile(layer: segments[0], segments[1], segments[2], segments[3])
        default:
            return .notFound("no such path")
        }
    }

    private static func admin(_ segments: [String]) -> RouteMatch {
        if segments == ["reload"] { return .route(.reload) }
        if segments.count == 3, segments[0] == "layers", segments[2] == "clear-cache", isLayerName(segments[1]) {
            return .route(.clearCache(layer: segments[1]))
        }
        return .notFound("no such path")
    }

    private static func tile(layer: String?, _ zText: String, _ xText: String, _ yFile: String) -> RouteMatch {
        guard let dot = yFile.lastIndex(of: "."), let format = TileFormat(fileExtension: String(yFile[yFile.index(after: dot)...])) else {
            return .notFound("tiles are served as .png, .jpg, .webp or .pbf (the layer's format)")
        }
        var yText = yFile[..<dot]
        var scale = 1
        if yText.hasSuffix("@2x") {
            scale = 2
            yText = yText.dropLast(3)
        }
        var numbers: [Int] = []
        for (name, text) in [("z", Substring(zText)), ("x", Substring(xText)), ("y", yText)] {
            // x outside [0, 2^z) wraps (the map repeats east and west), so x may be negative.
            let digits = name == "x" && text.hasPrefix("-") ? text.dropFirst() : text
            guard !digits.isEmpty, digits.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else {
                return .badRequest("\(name) \"\(text)\" is not a number")
            }
            guard digits.count <= maxCoordinateDigits, let value = Int(text) else {
                return .notFound("\(name) \(text) is out of range")
            }
            numbers.append(value)
        }
        return .route(.tile(TileRoute(layer: layer, z: numbers[0], x: numbers[1], y: numbers[2], scale: scale, format: format)))
    }

    private static func startsWithLetter(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        return (first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")) || (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z"))
    }

    /// `[a-z][a-z0-9_-]*`.
    static func isLayerName(_ text: String) -> Bool {
        LayerSettings.isValidName(text)
    }
}
