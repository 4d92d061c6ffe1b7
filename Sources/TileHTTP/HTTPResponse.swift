/// A response: status, headers and body. The connection adds `Content-Length`, `Date` and
/// `Connection`, and drops the body of a `HEAD` answer.
public struct HTTPResponse: Sendable {
    /// Everything a response holds, in one shared box (`CopyOnWrite`): a response travels through
    /// the connection's state machine, its queue and the log, and each copy costs one reference.
    private struct Fields: Sendable {
        var status: HTTPStatus
        var headers: HTTPHeaders
        var content: HTTPBody
        var preparedHead: [UInt8]?
        /// The body length `preparedHead` was encoded for (`prepared(bodyCount:)`).
        var preparedBodyCount: Int?
        var note: String?
        var route: String?
        var restSeconds: Double?
    }

    private var fields: CopyOnWrite<Fields>

    /// The status.
    public var status: HTTPStatus {
        get { fields.value.status }
        set { fields.value.status = newValue }
    }
    /// The header fields (without `Content-Length`, `Date`, `Connection`).
    public var headers: HTTPHeaders {
        get { fields.value.headers }
        set { fields.value.headers = newValue }
    }
    /// The body.
    public var content: HTTPBody {
        get { fields.value.content }
        set { fields.value.content = newValue }
    }
    /// The body's bytes when it is in memory (empty for a file region); set: a body in memory.
    public var body: [UInt8] {
        get {
            if case .bytes(let bytes) = content { return bytes }
            return []
        }
        set { content = .bytes(newValue) }
    }
    /// The file region the body is sent from, if it is one.
    public var file: HTTPFileRegion? {
        if case .file(let region) = content { return region }
        return nil
    }
    /// The status line, header fields and Content-Length, already encoded (`prepared()`); sent
    /// instead of encoding `headers` again.
    public private(set) var preparedHead: [UInt8]? {
        get { fields.value.preparedHead }
        set { fields.value.preparedHead = newValue }
    }
    /// Free text for the access log (a cache hit or miss, say); never sent.
    public var note: String? {
        get { fields.value.note }
        set { fields.value.note = newValue }
    }
    /// The application's name for the kind of request answered ("tile", "health"), used as a
    /// metrics label: a small fixed set, never the raw path. Nil counts as "other"; never sent.
    public var route: String? {
        get { fields.value.route }
        set { fields.value.route = newValue }
    }

    /// Seconds the connection reads no further request after this answer: a client told to
    /// come back later (a refusal under load, with `Retry-After`) that asks again at once on the
    /// same connection waits that long for its answer, instead of taking the event loop from
    /// the clients still served. Nil: none. Never sent.
    public var restSeconds: Double? {
        get { fields.value.restSeconds }
        set { fields.value.restSeconds = newValue }
    }

    /// A response whose body is `body`.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), content: HTTPBody) {
        fields = CopyOnWrite(Fields(status: status, headers: headers, content: content))
    }

    /// A response whose body is `body`, in memory.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        self.init(status: status, headers: headers, content: .bytes(body))
    }

    /// The response with its head encoded once, for an answer kept and sent many times (a
    /// cached tile): sending it then builds no header text. Change nothing of it afterwards.
    public func prepared() -> HTTPResponse {
        var response = self
        response.preparedHead = HTTPResponseEncoder.fields(of: self)
        return response
    }

    /// The response with its head encoded once for a body of `count` bytes that each answer
    /// then attaches with `sending(_:)` (a tile file's answer, made once per file version and
    /// sent many times, each time with the file opened or the bytes read for it).
    public func prepared(bodyCount count: Int) -> HTTPResponse {
        var response = self
        response.preparedHead = HTTPResponseEncoder.fields(of: self, contentLength: count)
        response.fields.value.preparedBodyCount = count
        return response
    }

    /// This response, prepared with `prepared(bodyCount:)`, with `content` of that length.
    public consuming func sending(_ content: HTTPBody) -> HTTPResponse {
        precondition(content.count == fields.value.preparedBodyCount, "a body of another length than the prepared head says")
        self.content = content
        return consume self
    }

    /// The length of the body.
    public var contentLength: Int { content.count }

    /// A short plain-text answer; every error answer says what was wrong.
    public static func text(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set(.contentType, "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array((message + "\n").utf8))
    }
}
