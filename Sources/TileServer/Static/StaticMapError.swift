/// Why a `/static` or `/camera` request cannot be answered: every case is the client's mistake and
/// becomes a 400 whose text names the parameter and says what to fix.
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
    /// A negative padding (`name`: `padding`, `fitPadding` or a `fit:` update's).
    case negativePadding(name: String, value: Double)
    /// Padding as wide or as tall as the view.
    case paddingLeavesNoRoom(horizontal: Double, vertical: Double, width: Int, height: Int)
    /// `auto` without `?bounds=`.
    case missingBounds
    /// A bounds box that is not one.
    case badBounds(String)
    /// An `update=` value (1-based `index` among the updates) that is not a camera update.
    case badUpdate(index: Int, text: String, reason: String)
    /// More values of a repeated parameter than one request may carry.
    case tooMany(name: String, limit: Int)
    /// A screen point (of `point=` or `zoomBy:D@X,Y`) outside the view.
    case pointOutsideView(name: String, x: Double, y: Double, width: Int, height: Int)
    /// A `span=` that is not two positive distances.
    case badSpan(String)

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
        case .negativePadding(let name, let value):
            return "\(name) \(value) must not be negative"
        case .paddingLeavesNoRoom(let horizontal, let vertical, let width, let height):
            return "padding leaves no room: \(horizontal) of \(width) points across, \(vertical) of \(height) down"
        case .missingBounds:
            return "/static/{layer}/auto/… needs ?bounds={west},{south},{east},{north}"
        case .badBounds(let reason):
            return "bounds: \(reason)"
        case .badUpdate(let index, let text, let reason):
            return "update \(index) \"\(text)\": \(reason)"
        case .tooMany(let name, let limit):
            return "more than \(limit) \(name) parameters"
        case .pointOutsideView(let name, let x, let y, let width, let height):
            return "\(name) (\(x), \(y)) is outside the \(width)x\(height) view"
        case .badSpan(let reason):
            return "span: \(reason)"
        }
    }
}
