/// A source failed: not "no tile", not "not available now", but something an operator must see.
public enum TileProviderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file exists but could not be read.
    case unreadable(path: String, errno: Int32)
    /// The bytes from `source` are not a PNG.
    case notPNG(source: String)
    /// A source is misconfigured (said at start-up).
    case invalidConfiguration(String)

    public var description: String {
        switch self {
        case .unreadable(let path, let code): return "cannot read \(path): \(systemErrorText(code))"
        case .notPNG(let source): return "\(source) is not a PNG"
        case .invalidConfiguration(let message): return message
        }
    }
}
