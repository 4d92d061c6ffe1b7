/// Why a `/static` request cannot be drawn: every case is the client's mistake and becomes a 400
/// whose text says what to fix.
public enum StaticMapError: Error, Equatable, CustomStringConvertible {
    /// A value that is not a decimal number (`zoom "abc" is not a number`).
    case notANumber(name: String, text: String)
    /// A number too large to be finite (`1e999`).
    case notFinite(name: String)
    /// A list with the wrong number of values.
    case wrongCount(name: String, text: String, expected: String)
    /// The size segment is not `{w}x{h}`.
    case badSize(text: String)
    /// A side outside 1…2048 pixels (`@2x` doubles the points).
    case sizeOutOfRange(name: String, value: String, scale: Int)
    /// A negative padding.
    case negativePadding(Double)
    /// Padding as wide or as tall as the view.
    case paddingLeavesNoRoom(horizontal: Double, vertical: Double, width: Int, height: Int)
    /// `auto` without `?bounds=`.
    case missingBounds
    /// A bounds box that is not one.
    case badBounds(String)

    public var description: String {
        switch self {
        case .notANumber(let name, let text):
            return "\(name) \"\(text)\" is not a number"
        case .notFinite(let name):
            return "\(name) must be finite"
        case .wrongCount(let name, let text, let expected):
            return "\(name) \"\(text)\" must be \(expected)"
        case .badSize(let text):
            return "size \"\(text)\" must be {width}x{height} or {width}x{height}@2x"
        case .sizeOutOfRange(let name, let value, let scale):
            let limit = StaticRoute.maxPixelSide / scale
            let unit = scale == 1 ? "" : " at @\(scale)x (\(StaticRoute.maxPixelSide) pixels)"
            return "\(name) \(value) is outside 1-\(limit)\(unit)"
        case .negativePadding(let value):
            return "padding \(value) must not be negative"
        case .paddingLeavesNoRoom(let horizontal, let vertical, let width, let height):
            return "padding leaves no room: \(horizontal) of \(width) points across, \(vertical) of \(height) down"
        case .missingBounds:
            return "/static/{layer}/auto/… needs ?bounds={west},{south},{east},{north}"
        case .badBounds(let reason):
            return "bounds: \(reason)"
        }
    }
}
