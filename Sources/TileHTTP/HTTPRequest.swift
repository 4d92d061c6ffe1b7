/// A parsed request: method, target (decoded path segments and raw query), version, headers, body.
public struct HTTPRequest: Sendable, Equatable {
    /// The counted fields (strings, arrays), in one shared box (`CopyOnWrite`): a request is
    /// handed from the parser to the state machine, the application and its completion.
    private struct Fields: Sendable {
        var target: String
        /// Nil when `target` is a plain origin form (`HTTPRequestTarget.plain`): the segments
        /// are read from it when asked for, and a route reads a tile path's bytes in place.
        var pathSegments: [String]?
        var query: String?
        var headers: HTTPHeaders
        var body: [UInt8]
    }

    private var fields: CopyOnWrite<Fields>

    /// The method.
    public var method: HTTPMethod
    /// The request target exactly as sent: for logs, and, when plain (`plainTarget`), where the
    /// path segments are read from and a route reads the path in place.
    public var target: String { fields.value.target }
    /// The path, percent-decoded, split on "/" (a leading slash gives no empty first segment).
    /// "/" gives `[]`; "/a/b.png" gives `["a", "b.png"]`.
    public var pathSegments: [String] {
        fields.value.pathSegments ?? HTTPRequestTarget.plainSegments(of: fields.value.target)
    }

    /// The target when it is a plain origin form (no percent-encoding, checked by the parser as
    /// `pathSegments` would be: no dot segments, backslashes or NUL), so that a route can read
    /// its path in place (up to "?" or "#") without the segments' strings; nil for any other
    /// target, or segments set in code (read `pathSegments` then).
    public var plainTarget: String? { fields.value.pathSegments == nil ? fields.value.target : nil }

    /// The raw query string (after "?", not decoded), or nil.
    public var query: String? {
        get { fields.value.query }
        set { fields.value.query = newValue }
    }
    /// The protocol version.
    public var version: HTTPVersion
    /// The header fields.
    public var headers: HTTPHeaders { fields.value.headers }
    /// The body (empty for most requests).
    public var body: [UInt8] {
        get { fields.value.body }
        set { fields.value.body = newValue }
    }
    /// The body length the client announced, as the parser read it from `Content-Length` (the
    /// body may not have been read: see `HTTPRequestParser.bodyWithheld`); `body.count` for a
    /// request made in code.
    public var announcedBodyLength: Int
    /// A request; `pathSegments` and `query` come from `target`'s path (nil `pathSegments`:
    /// `target` is a plain origin form, `HTTPRequestTarget.plain`, and they are read from it).
    init(
        method: HTTPMethod, target: String, plainOrSegments pathSegments: [String]?, query: String?,
        version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.method = method
        self.fields = CopyOnWrite(Fields(target: target, pathSegments: pathSegments, query: query, headers: headers, body: body))
        self.version = version
        self.announcedBodyLength = body.count
    }

    /// A request; `pathSegments` and `query` come from `target`'s path.
    public init(
        method: HTTPMethod, target: String, pathSegments: [String], query: String?,
        version: HTTPVersion = .http1_1, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []
    ) {
        self.init(method: method, target: target, plainOrSegments: pathSegments, query: query, version: version,
                  headers: headers, body: body)
    }

    /// Parses an origin-form `target` ("/a/b?c") the way the server does.
    public init(method: HTTPMethod, target: String, headers: HTTPHeaders = HTTPHeaders()) throws(HTTPParseError) {
        var bytes = target
        let plain = try bytes.withUTF8 { utf8 in
            Result { () throws(HTTPParseError) in try HTTPRequestTarget.plain(utf8) }
        }.get()
        if let plain {
            self.init(method: method, target: target, plainOrSegments: nil, query: plain.query, headers: headers)
            return
        }
        let parsed = try HTTPRequestTarget(parsing: target)
        self.init(method: method, target: target, pathSegments: parsed.pathSegments, query: parsed.query,
                  headers: headers)
    }

    /// Whether the client wants the connection kept open after this request (RFC 9112 §9.3).
    public var keepAlive: Bool {
        // RFC 9112 §9.3: "close" ends the connection whatever the version; then HTTP/1.1
        // persists, HTTP/1.0 only with "keep-alive". Read in place: a browser sends
        // "Connection: keep-alive" with every request.
        if headers.lists("close", in: .connection) { return false }
        switch version {
        case .http1_1: return true
        case .http1_0: return headers.lists("keep-alive", in: .connection)
        }
    }

    /// Whether the client waits for `100 Continue` before sending its body (RFC 9110 §10.1.1).
    public var expectsContinue: Bool {
        headers[.expect].map { Substring($0).trimmingSpaces.lowercased() == "100-continue" } ?? false
    }

    /// The decoded query parameters in order (`+` is a space, per HTML forms).
    public var queryItems: [(name: String, value: String)] {
        guard let query, !query.isEmpty else { return [] }
        return query.split(separator: "&", omittingEmptySubsequences: true).map { pair in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = PercentDecoding.decodeQueryComponent(parts[0]) ?? String(parts[0])
            let value = parts.count > 1 ? (PercentDecoding.decodeQueryComponent(parts[1]) ?? String(parts[1])) : ""
            return (name: name, value: value)
        }
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.method == rhs.method && lhs.target == rhs.target && lhs.pathSegments == rhs.pathSegments
            && lhs.query == rhs.query && lhs.version == rhs.version && lhs.headers == rhs.headers
            && lhs.body == rhs.body
    }
}

extension Substring {
    /// The substring without leading and trailing spaces and tabs.
    var trimmingSpaces: Substring {
        var result = self
        while let first = result.first, first == " " || first == "\t" { result.removeFirst() }
        while let last = result.last, last == " " || last == "\t" { result.removeLast() }
        return result
    }
}
