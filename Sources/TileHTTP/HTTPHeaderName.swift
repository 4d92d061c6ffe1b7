/// A header field name, compared case-insensitively (RFC 9110 §5.1).
public struct HTTPHeaderName: Sendable, Hashable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The name as it is sent.
    public let rawValue: String
    /// The lower-cased name, used for comparison.
    public let canonical: String
    /// This name's bit among the names looked up in every request (`HTTPHeaders` keeps which of
    /// them it holds, so a lookup of one it does not hold reads no field); 0 for other names.
    let bit: UInt16

    /// A header name.
    public init(_ rawValue: String) {
        self.rawValue = rawValue
        var bytes = rawValue
        canonical = bytes.withUTF8 { Self.canonical(of: $0, rawValue: rawValue) }
        bit = Self.bit(of: canonical)
    }

    /// A name as the parser read it (ASCII token bytes): lower-cased from the bytes, no second pass.
    init(bytes: UnsafeBufferPointer<UInt8>) {
        rawValue = String(decoding: bytes, as: UTF8.self)
        canonical = Self.canonical(of: bytes, rawValue: rawValue)
        bit = Self.bit(of: canonical)
    }

    /// The names a request's handling looks up whether or not they were sent (framing,
    /// keep-alive, validators, CORS, encodings), lower-cased: each has a bit, its index here.
    private static let lookedUpInEveryRequest = [
        "host", "content-length", "transfer-encoding", "connection", "expect",
        "if-none-match", "if-modified-since", "origin", "accept-encoding",
    ]

    /// The bit of the name whose lower-cased form is `canonical`; 0 when it is none of those.
    private static func bit(of canonical: String) -> UInt16 {
        let length = canonical.utf8.count
        for (index, name) in lookedUpInEveryRequest.enumerated() where name.utf8.count == length && name == canonical {
            return 1 << index
        }
        return 0
    }

    /// `rawValue` (whose UTF-8 is `bytes`) with A-Z made a-z (field names are ASCII tokens):
    /// `rawValue` itself, not a copy, when it has no capitals; never the Unicode case mapping
    /// `lowercased()` runs per character. Written in place: a name of up to 15 bytes ("Host",
    /// "Accept") is a small string, no allocation.
    private static func canonical(of bytes: UnsafeBufferPointer<UInt8>, rawValue: String) -> String {
        guard bytes.contains(where: { $0.asciiLowercased != $0 }) else { return rawValue }
        return String(unsafeUninitializedCapacity: bytes.count) { buffer in
            for index in 0 ..< bytes.count { buffer[index] = bytes[index].asciiLowercased }
            return bytes.count
        }
    }

    public init(stringLiteral value: String) {
        self.init(value)
    }

    public var description: String { rawValue }

    /// Names of different lengths differ without a string comparison (most of a lookup's fields).
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.canonical.utf8.count == rhs.canonical.utf8.count && lhs.canonical == rhs.canonical
    }
    public func hash(into hasher: inout Hasher) { hasher.combine(canonical) }

    public static let accessControlAllowHeaders = HTTPHeaderName("Access-Control-Allow-Headers")
    public static let accessControlAllowMethods = HTTPHeaderName("Access-Control-Allow-Methods")
    public static let accessControlAllowOrigin = HTTPHeaderName("Access-Control-Allow-Origin")
    public static let accessControlMaxAge = HTTPHeaderName("Access-Control-Max-Age")
    public static let acceptEncoding = HTTPHeaderName("Accept-Encoding")
    public static let age = HTTPHeaderName("Age")
    public static let allow = HTTPHeaderName("Allow")
    public static let authorization = HTTPHeaderName("Authorization")
    public static let cacheControl = HTTPHeaderName("Cache-Control")
    public static let connection = HTTPHeaderName("Connection")
    public static let contentEncoding = HTTPHeaderName("Content-Encoding")
    public static let contentLength = HTTPHeaderName("Content-Length")
    public static let contentType = HTTPHeaderName("Content-Type")
    public static let date = HTTPHeaderName("Date")
    public static let eTag = HTTPHeaderName("ETag")
    public static let expect = HTTPHeaderName("Expect")
    public static let expires = HTTPHeaderName("Expires")
    public static let host = HTTPHeaderName("Host")
    public static let ifModifiedSince = HTTPHeaderName("If-Modified-Since")
    public static let ifNoneMatch = HTTPHeaderName("If-None-Match")
    public static let lastModified = HTTPHeaderName("Last-Modified")
    public static let origin = HTTPHeaderName("Origin")
    public static let retryAfter = HTTPHeaderName("Retry-After")
    public static let transferEncoding = HTTPHeaderName("Transfer-Encoding")
    public static let vary = HTTPHeaderName("Vary")
}
