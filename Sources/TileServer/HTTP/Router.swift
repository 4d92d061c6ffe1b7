import TileProviders

/// Maps decoded path segments to a `Route`. Pure: no I/O, no layer lookups.
public enum Router {
    /// Longest decimal number accepted as a coordinate; longer ones are out of every range.
    static let maxCoordinateDigits = 10

    /// The route for `segments` (as `HTTPRequest.pathSegments`).
    public static func match(_ segments: [String]) -> RouteMatch {
        // A tile path's first segment is a zoom (digits): it skips the named prefixes' compares.
        if let first = segments.first, startsWithLetter(first) {
            if first == "admin" { return admin(Array(segments.dropFirst())) }
            if first == StaticRouteParser.prefix { return StaticRouteParser.match(segments) }
            if first == CameraRouteParser.prefix { return CameraRouteParser.match(segments) }
            if first == WMTSRoute.prefix { return WMTSRoute.match(segments) }
            if first == OGCAPIRoute.prefix { return OGCAPIRoute.match(segments) }
        }
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
        // "{y}.{ext}" or "{y}@2x.{ext}", read on the contiguous UTF-8 (a small string is copied
        // to the stack): no index types, no intermediate strings.
        var file = yFile
        let parsed: (format: TileFormat, scale: Int, y: CoordinateValue, yLength: Int)? = file.withUTF8 { bytes in
            guard let dot = bytes.lastIndex(of: UInt8(ascii: ".")),
                  let format = TileFormat(fileExtension: UnsafeBufferPointer(rebasing: bytes[(dot + 1)...]))
            else { return nil }
            var end = dot
            var scale = 1
            if end >= 3 && bytes[end - 3] == UInt8(ascii: "@") && bytes[end - 2] == UInt8(ascii: "2")
                && bytes[end - 1] == UInt8(ascii: "x") {
                scale = 2
                end -= 3
            }
            return (format, scale, coordinateValue(UnsafeBufferPointer(rebasing: bytes[..<end]), signed: false), end)
        }
        guard let parsed else {
            return .notFound("tiles are served as .png, .jpg, .webp or .pbf (the layer's format)")
        }
        let z: Int, x: Int, y: Int
        switch (coordinate("z", zText), coordinate("x", xText, signed: true),
                checked("y", parsed.y, text: { Substring(yFile.utf8.prefix(parsed.yLength)) })) {
        case (.success(let zValue), .success(let xValue), .success(let yValue)): (z, x, y) = (zValue, xValue, yValue)
        case (.failure(let refusal), _, _), (_, .failure(let refusal), _), (_, _, .failure(let refusal)): return refusal.match
        }
        return .route(.tile(TileRoute(layer: layer, z: z, x: x, y: y, scale: parsed.scale, format: parsed.format)))
    }

    /// Why a coordinate is refused: not a number (400) or too long (404).
    private struct CoordinateRefusal: Error {
        let match: RouteMatch
    }

    /// What a coordinate's bytes say.
    private enum CoordinateValue {
        case value(Int)
        case notANumber
        case tooLong
    }

    /// A tile coordinate's value: decimal digits (and, when `signed`, a leading "-": x outside
    /// [0, 2^z) wraps, the map repeats east and west), at most `maxCoordinateDigits` of them.
    private static func coordinate(_ name: String, _ text: String, signed: Bool = false) -> Result<Int, CoordinateRefusal> {
        var bytes = text
        // Read on the contiguous UTF-8 (a small string is copied to the stack): no index types,
        // no substring.
        let value = bytes.withUTF8 { coordinateValue($0, signed: signed) }
        return checked(name, value, text: { Substring(text) })
    }

    private static func coordinateValue(_ bytes: UnsafeBufferPointer<UInt8>, signed: Bool) -> CoordinateValue {
        var digits = bytes[...]
        let negative = signed && digits.first == UInt8(ascii: "-")
        if negative { digits = digits.dropFirst() }
        guard !digits.isEmpty else { return .notANumber }
        var value = 0
        for byte in digits {
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return .notANumber }
            value = value &* 10 &+ Int(byte - UInt8(ascii: "0"))
        }
        guard digits.count <= maxCoordinateDigits else { return .tooLong }
        return .value(negative ? -value : value)
    }

    /// The value, or the refusal naming the coordinate and its text (made only when refused).
    private static func checked(_ name: String, _ value: CoordinateValue, text: () -> Substring) -> Result<Int, CoordinateRefusal> {
        switch value {
        case .value(let value): return .success(value)
        case .notANumber: return .failure(CoordinateRefusal(match: .badRequest("\(name) \"\(text())\" is not a number")))
        case .tooLong: return .failure(CoordinateRefusal(match: .notFound("\(name) \(text()) is out of range")))
        }
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
