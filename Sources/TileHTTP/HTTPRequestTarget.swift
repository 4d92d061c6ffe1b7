/// The path and query of a request target, decoded and checked so that no segment can
/// climb out of a folder: "." and ".." segments, encoded slashes and NUL bytes are refused.
public struct HTTPRequestTarget: Sendable, Equatable {
    /// Decoded path segments; "/" is `[]`. Empty segments ("//") are dropped.
    public var pathSegments: [String]
    /// The raw query (after "?"), or nil.
    public var query: String?
    /// The authority ("host:port") of an absolute-form target, or nil.
    public var authority: String?
    /// Whether the target is "*" (asterisk form).
    public var isAsterisk = false

    /// Parses origin-form ("/a/b?q"), absolute-form ("http://host/a/b?q") or "*" (OPTIONS).
    public init(parsing target: String) throws(HTTPParseError) {
        var bytes = target
        self = try bytes.withUTF8 { utf8 in
            Result { () throws(HTTPParseError) in try Self(parsing: target, bytes: utf8) }
        }.get()
    }

    /// Parses `target`, whose UTF-8 is `bytes` (the parser's buffer): the plain origin form is
    /// read from `bytes` without going through the string.
    init(parsing target: String, bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) {
        if let plain = try Self.plain(bytes) {
            self.init(pathSegments: Self.plainSegments(bytes), query: plain.query)
            return
        }
        try self.init(parsingGeneral: target)
    }

    /// What a plain origin-form target (`plain(_:)`) leaves to read: its query. Its segments
    /// are read from the target when asked for (`plainSegments(_:)`).
    struct Plain {
        /// The raw query (after "?"), or nil.
        let query: String?
    }

    /// A target in origin form without percent-encoding (what map clients send), checked as
    /// the general parser checks it, with no string made but its query; nil for any other
    /// target, which the general parser then reads (`init(parsingGeneral:)`).
    static func plain(_ bytes: UnsafeBufferPointer<UInt8>) throws(HTTPParseError) -> Plain? {
        let queryStart: Int
        switch try scanPlainOriginForm(bytes, segment: { _ in }) {
        case .notPlain: return nil
        case .withoutQuery: return Plain(query: nil)
        case .query(let start): queryStart = start
        }
        var end = queryStart
        while end < bytes.count && bytes[end] != UInt8(ascii: "#") { end += 1 }
        return Plain(query: String(decoding: UnsafeBufferPointer(rebasing: bytes[queryStart ..< end]), as: UTF8.self))
    }

    /// The path segments of a target `plain(_:)` accepted.
    static func plainSegments(_ bytes: UnsafeBufferPointer<UInt8>) -> [String] {
        var segments: [String] = []
        segments.reserveCapacity(8)  // one allocation for a tile path, not one per doubling
        let scan = try? scanPlainOriginForm(bytes) { segments.append(String(decoding: $0, as: UTF8.self)) }
        // Only a target `plain(_:)` accepted gets here: one it refused would give part of its segments.
        assert(scan.map { if case .notPlain = $0 { false } else { true } } ?? false, "not a plain target")
        return segments
    }

    /// The path segments of `target`, which `plain(_:)` accepted.
    static func plainSegments(of target: String) -> [String] {
        var target = target
        return target.withUTF8 { plainSegments($0) }
    }

    private init(pathSegments: [String], query: String?) {
        self.pathSegments = pathSegments
        self.query = query
    }

    /// Every form: origin (with percent-encoding), absolute and asterisk.
    init(parsingGeneral target: String) throws(HTTPParseError) {
        var rest = Substring(target)
        if rest == "*" {
            pathSegments = []
            query = nil
            isAsterisk = true
            return
        }
        // RFC 9112 §3.2.2: a server must accept absolute-form; keep only its path and query.
        if !rest.hasPrefix("/") {
            let lower = rest.prefix(8).lowercased()
            guard lower.hasPrefix("http://") || lower.hasPrefix("https://") else {
                throw .malformedTarget(reason: "the path must start with /")
            }
            let afterScheme = rest.drop { $0 != "/" }.dropFirst(2)
            let authorityEnd = afterScheme.firstIndex(where: { $0 == "/" || $0 == "?" }) ?? afterScheme.endIndex
            // RFC 3986 §3.2: userinfo is not part of the host.
            let hostPart = afterScheme[..<authorityEnd].split(separator: "@").last ?? ""
            guard !hostPart.isEmpty else { throw .malformedTarget(reason: "absolute-form target without a host") }
            authority = String(hostPart)
            rest = authorityEnd < afterScheme.endIndex ? afterScheme[authorityEnd...] : "/"
            if rest.hasPrefix("?") { rest = "/" + rest }
        }
        if let fragment = rest.firstIndex(of: "#") { rest = rest[..<fragment] }
        var path = rest
        query = nil
        if let mark = rest.firstIndex(of: "?") {
            path = rest[..<mark]
            query = String(rest[rest.index(after: mark)...])
        }
        var segments: [String] = []
        for rawBytes in path.utf8.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true) {
            let raw = Substring(rawBytes)
            guard let decoded = PercentDecoding.decode(raw) else {
                throw .malformedTarget(reason: "invalid percent-encoding in \"\(raw)\"")
            }
            if decoded == "." || decoded == ".." {
                throw .malformedTarget(reason: "dot segments (\".\" or \"..\") are not allowed")
            }
            if decoded.utf8.contains(where: { $0 == UInt8(ascii: "/") || $0 == UInt8(ascii: "\\") || $0 == 0 }) {
                throw .malformedTarget(reason: "encoded slash, backslash or NUL in a path segment")
            }
            segments.append(decoded)
        }
        pathSegments = segments
    }

    /// What `scanPlainOriginForm` found.
    private enum PlainScan {
        /// Not origin form, or percent-encoded: the general parser reads it.
        case notPlain
        /// A plain path and no query.
        case withoutQuery
        /// A plain path, and a query from this index (after "?").
        case query(from: Int)
    }

    /// Reads an origin-form target without percent-encoding byte by byte, handing each
    /// non-empty path segment to `segment`, with no intermediate strings. Refuses what the
    /// general parser refuses.
    private static func scanPlainOriginForm(
        _ bytes: UnsafeBufferPointer<UInt8>, segment: (UnsafeBufferPointer<UInt8>) -> Void
    ) throws(HTTPParseError) -> PlainScan {
        guard bytes.first == UInt8(ascii: "/") else { return .notPlain }
        var start = 1
        var index = 1
        while true {
            let byte = index < bytes.count ? bytes[index] : UInt8(ascii: "#")
            switch byte {
            case UInt8(ascii: "/"), UInt8(ascii: "?"), UInt8(ascii: "#"):
                if index > start {
                    let text = UnsafeBufferPointer(rebasing: bytes[start ..< index])
                    if text.count <= 2 && text.allSatisfy({ $0 == UInt8(ascii: ".") }) {
                        throw .malformedTarget(reason: "dot segments (\".\" or \"..\") are not allowed")
                    }
                    segment(text)
                }
                if byte == UInt8(ascii: "?") { return .query(from: index + 1) }
                if byte == UInt8(ascii: "#") { return .withoutQuery }
                start = index + 1
            case UInt8(ascii: "%"):
                return .notPlain
            case UInt8(ascii: "\\"), 0:
                throw .malformedTarget(reason: "encoded slash, backslash or NUL in a path segment")
            default:
                break
            }
            index += 1
        }
    }
}
