import TileHTTP
import TileProviders

/// Maps a request's path (its bytes for a plain tile path, else its decoded segments) to a
/// `Route`. Pure: no I/O, no layer lookups.
public enum Router {
    /// Longest decimal number accepted as a coordinate; longer ones are out of every range.
    static let maxCoordinateDigits = 10

    /// The route for `request`'s path: a tile path read in place from its bytes when the target
    /// is plain (`HTTPRequest.plainTarget`), with no segment strings; anything else, and a
    /// tile path that is not plain, from its segments, to the same route.
    public static func match(_ request: HTTPRequest) -> RouteMatch {
        if var target = request.plainTarget, let tile = target.withUTF8({ plainTile($0) }) { return tile }
        return match(request.pathSegments)
    }

    /// The route for `segments` (as `HTTPRequest.pathSegments`). A first segment this reads
    /// before a tile path's is a prefix of `prefixRoutes` or `assetsPrefix`, which `plainTile`
    /// leaves to it.
    public static func match(_ segments: [String]) -> RouteMatch {
        // A default-layer tile path's first segment is a zoom (digits): it skips the named
        // prefixes' compares.
        if let first = segments.first, startsWithLetter(first),
           let named = prefixRoutes.first(where: { $0.prefix == first }) {
            return named.match(segments)
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
        case 2 ... 4 where segments[0] == assetsPrefix:
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

    /// The route of a plain target's path (`HTTPRequest.plainTarget`, up to "?" or "#") when it
    /// has a tile path's shape: three segments, or four whose first names a layer (not a named
    /// prefix, `isNamedPrefix`, which `match(_:)` reads first); nil for any other path, and for an
    /// empty segment ("//", a trailing "/"), which the segments drop: `match(_:)` reads those.
    static func plainTile(_ target: UnsafeBufferPointer<UInt8>) -> RouteMatch? {
        // The "/" before each segment, then the path's end.
        var cuts = SIMD8<Int>()  // room for maxTileSegments + 1
        var count = 0
        var end = 0
        while end < target.count {
            let byte = target[end]
            if byte == UInt8(ascii: "?") || byte == UInt8(ascii: "#") { break }
            if byte == UInt8(ascii: "/") {
                guard count < maxTileSegments else { return nil }
                cuts[count] = end
                count += 1
            }
            end += 1
        }
        cuts[count] = end
        for index in 0 ..< count where cuts[index + 1] - cuts[index] < 2 { return nil }
        let segment = { (index: Int) in UnsafeBufferPointer(rebasing: target[(cuts[index] + 1) ..< cuts[index + 1]]) }
        switch count {
        case 3 where !startsWithLetter(target[1]):
            return tile(layer: nil, z: segment(0), x: segment(1), yFile: segment(2))
        case 4:
            let layer = segment(0)
            guard LayerSettings.isValidName(layer), !isNamedPrefix(layer) else { return nil }
            return tile(layer: String(decoding: layer, as: UTF8.self), z: segment(1), x: segment(2), yFile: segment(3))
        default:
            return nil
        }
    }

    /// Segments of the longest tile path ("/{layer}/{z}/{x}/{y}.{ext}").
    private static let maxTileSegments = 4

    /// The first segments `match(_:)` reads before a tile path's, each with the parser of the
    /// paths under it (given the whole path). A layer cannot be named so, and `plainTile` leaves
    /// a path that starts with one to `match(_:)`.
    private static let prefixRoutes: [(prefix: String, match: @Sendable ([String]) -> RouteMatch)] = [
        ("admin", { admin(Array($0.dropFirst())) }),
        (StaticRouteParser.prefix, StaticRouteParser.match),
        (CameraRouteParser.prefix, CameraRouteParser.match),
        (WMTSRoute.prefix, WMTSRoute.match),
        (OGCAPIRoute.prefix, OGCAPIRoute.match),
    ]

    /// The first segment of the front page's files (`/assets/...`), which `match(_:)` also
    /// reads before a tile path's.
    private static let assetsPrefix = "assets"

    /// Every first segment `match(_:)` reads before a tile path's (configuration refuses them
    /// as layer names: `LayerSettings.reservedNames`).
    static var namedPrefixes: [String] { prefixRoutes.map(\.prefix) + [assetsPrefix] }

    /// Whether `segment` is a first segment `match(_:)` reads before a tile path's.
    private static func isNamedPrefix(_ segment: UnsafeBufferPointer<UInt8>) -> Bool {
        assetsPrefix.utf8.elementsEqual(segment) || prefixRoutes.contains { $0.prefix.utf8.elementsEqual(segment) }
    }

    private static func tile(layer: String?, _ zText: String, _ xText: String, _ yFile: String) -> RouteMatch {
        // Read on the contiguous UTF-8 (a small string is copied to the stack).
        var (zText, xText, yFile) = (zText, xText, yFile)
        return zText.withUTF8 { z in
            xText.withUTF8 { x in yFile.withUTF8 { tile(layer: layer, z: z, x: x, yFile: $0) } }
        }
    }

    /// The tile route of "{z}", "{x}" and "{y}.{ext}" or "{y}@2x.{ext}", read in place: no index
    /// types, no intermediate strings (but a refusal's message).
    private static func tile(
        layer: String?, z zText: UnsafeBufferPointer<UInt8>, x xText: UnsafeBufferPointer<UInt8>,
        yFile: UnsafeBufferPointer<UInt8>
    ) -> RouteMatch {
        guard let dot = yFile.lastIndex(of: UInt8(ascii: ".")),
              let format = TileFormat(fileExtension: UnsafeBufferPointer(rebasing: yFile[(dot + 1)...]))
        else {
            return .notFound("tiles are served as .png, .jpg, .webp or .pbf (the layer's format)")
        }
        var end = dot
        var scale = 1
        if end >= 3 && yFile[end - 3] == UInt8(ascii: "@") && yFile[end - 2] == UInt8(ascii: "2")
            && yFile[end - 1] == UInt8(ascii: "x") {
            scale = 2
            end -= 3
        }
        let yText = UnsafeBufferPointer(rebasing: yFile[..<end])
        let z = coordinateValue(zText, signed: false), x = coordinateValue(xText, signed: true)
        let y = coordinateValue(yText, signed: false)
        guard case .value(let zValue) = z, case .value(let xValue) = x, case .value(let yValue) = y else {
            // The first coordinate refused, named with its text.
            return refusal("z", z, zText) ?? refusal("x", x, xText) ?? refusal("y", y, yText) ?? .notFound("no such path")
        }
        return .route(.tile(TileRoute(layer: layer, z: zValue, x: xValue, y: yValue, scale: scale, format: format)))
    }

    /// What a coordinate's bytes say.
    private enum CoordinateValue {
        case value(Int)
        case notANumber
        case tooLong
    }

    /// The refusal of a coordinate that is not a number (400) or too long (404), naming it and
    /// its text; nil for a value.
    private static func refusal(_ name: String, _ value: CoordinateValue, _ bytes: UnsafeBufferPointer<UInt8>) -> RouteMatch? {
        switch value {
        case .value: return nil
        case .notANumber: return .badRequest("\(name) \"\(String(decoding: bytes, as: UTF8.self))\" is not a number")
        case .tooLong: return .notFound("\(name) \(String(decoding: bytes, as: UTF8.self)) is out of range")
        }
    }

    /// A tile coordinate's value: decimal digits (and, when `signed`, a leading "-": x outside
    /// [0, 2^z) wraps, the map repeats east and west), at most `maxCoordinateDigits` of them.
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

    private static func startsWithLetter(_ text: String) -> Bool {
        guard let first = text.utf8.first else { return false }
        return startsWithLetter(first)
    }

    private static func startsWithLetter(_ first: UInt8) -> Bool {
        (first >= UInt8(ascii: "a") && first <= UInt8(ascii: "z")) || (first >= UInt8(ascii: "A") && first <= UInt8(ascii: "Z"))
    }

    /// `[a-z][a-z0-9_-]*`.
    static func isLayerName(_ text: String) -> Bool {
        LayerSettings.isValidName(text)
    }
}
