/// A request method token (RFC 9110 §9). An open vocabulary, case-sensitive.
public struct HTTPMethod: Sendable, Hashable, CustomStringConvertible {
    /// The method token as sent.
    public let rawValue: String

    /// A method from its token.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
    }

    public var description: String { rawValue }

    /// Tokens of different lengths differ without a string comparison (GET against HEAD, say).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.rawValue.utf8.count == rhs.rawValue.utf8.count && lhs.rawValue == rhs.rawValue
    }

    public static let get = HTTPMethod("GET")
    public static let head = HTTPMethod("HEAD")
    public static let post = HTTPMethod("POST")
    public static let put = HTTPMethod("PUT")
    public static let delete = HTTPMethod("DELETE")
    public static let options = HTTPMethod("OPTIONS")
}
