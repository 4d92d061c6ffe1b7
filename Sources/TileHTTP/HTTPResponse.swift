/// A response: status, headers and body. The connection adds `Content-Length`, `Date` and
/// `Connection`, and drops the body of a `HEAD` answer.
public struct HTTPResponse: Sendable {
    /// The fields every response has (status, headers, body, prepared head), in one shared box
    /// (`CopyOnWrite`): a response travels through the connection's state machine, its queue and
    /// the log.
    private struct Fields: Sendable {
        var status: HTTPStatus
        var headers: HTTPHeaders
        var body: [UInt8]
        var preparedHead: [UInt8]?
        /// The body length `preparedHead` was encoded for (`prepared(bodyCount:)`).
        var preparedBodyCount: Int?
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
    /// The body bytes (shared, not copied, when they come from a cache).
    public var body: [UInt8] {
        get { fields.value.body }
        set { fields.value.body = newValue }
    }
    /// What one answer carries beside its prepared fields (an open file's owner, a lent body, a
    /// reuse mark of three references, a wire layout, the log's and the metrics' labels), in a
    /// second box made when the first of them is set: a response is copied several times on its
    /// way (the state machine, the queue, the log, the head memo), and each copy then counts two
    /// references, not one for each of these. (The labels are short strings with no count of
    /// their own, but each copy of one still calls the runtime: inline, they cost a hot request
    /// 230 instructions more.) The cost: an answer that carries any of them allocates the box.
    private struct Attachments: Sendable {
        var file: HTTPFileBody?
        var lent: (any HTTPLentBody)?
        var note: String?
        var route: String?
        var reuse: HTTPAnswerReuse.Mark?
        var wire: HTTPWireAnswer?
    }

    private var attachments: CopyOnWrite<Attachments>?

    /// Changes the attachments through `change`, making their box first if there is none;
    /// nothing when `isNoChange` (nil written over nil: no box made, none shared copied).
    private mutating func changeAttachments(unless isNoChange: Bool, _ change: (inout Attachments) -> Void) {
        guard !isNoChange else { return }
        if attachments == nil { attachments = CopyOnWrite(Attachments()) }
        change(&attachments!.value)
    }

    /// A body sent from a file instead of `body` (which is then empty).
    public var file: HTTPFileBody? {
        get { attachments?.value.file }
        set { changeAttachments(unless: newValue == nil && file == nil) { $0.file = newValue } }
    }
    /// A body lent where it lies instead of `body` (which is then empty): for an answer sent as
    /// soon as it is made, on the loop that made it (see `HTTPLentBody`).
    public var lent: (any HTTPLentBody)? {
        get { attachments?.value.lent }
        set { changeAttachments(unless: newValue == nil && lent == nil) { $0.lent = newValue } }
    }
    /// The status line, header fields and Content-Length, already encoded (see `prepared()`);
    /// sent instead of encoding `headers` again.
    public private(set) var preparedHead: [UInt8]? {
        get { fields.value.preparedHead }
        set { fields.value.preparedHead = newValue }
    }
    /// Free text for the access log (a cache hit or miss, say); never sent.
    public var note: String? {
        get { attachments?.value.note }
        set { changeAttachments(unless: newValue == nil && note == nil) { $0.note = newValue } }
    }
    /// The application's name for the kind of request answered ("tile", "health"), used as a
    /// metrics label: a small fixed set, never the raw path. Nil counts as "other"; never sent.
    public var route: String? {
        get { attachments?.value.route }
        set { changeAttachments(unless: newValue == nil && route == nil) { $0.route = newValue } }
    }
    /// Set when the answer may be given again to a request with the same head bytes, while the
    /// mark is current (`HTTPAnswerReuse`); never sent.
    public var reuse: HTTPAnswerReuse.Mark? {
        get { attachments?.value.reuse }
        set { changeAttachments(unless: newValue == nil && reuse == nil) { $0.reuse = newValue } }
    }
    /// The answer laid out as it goes on the wire, head and body in one region, on the loop
    /// that gives it again (`HTTPHeadMemo`); never sent as such.
    var wire: HTTPWireAnswer? {
        get { attachments?.value.wire }
        set { changeAttachments(unless: newValue == nil && wire == nil) { $0.wire = newValue } }
    }

    /// Whether the response carries any attachment box (for tests: clearing makes none).
    var carriesAttachments: Bool { attachments != nil }

    /// A response.
    public init(status: HTTPStatus, headers: HTTPHeaders = HTTPHeaders(), body: [UInt8] = []) {
        fields = CopyOnWrite(Fields(status: status, headers: headers, body: body, preparedHead: nil,
                                    preparedBodyCount: nil))
    }

    /// The response with its head encoded once, for an answer kept and sent many times (a
    /// cached tile): sending it then builds no header text. Change nothing of it afterwards.
    public func prepared() -> HTTPResponse {
        var response = self
        response.preparedHead = HTTPResponseEncoder.fields(of: self)
        return response
    }

    /// The response with its head encoded once for a body of `count` bytes that each answer
    /// then attaches, with `sendingFile(_:)` or `sending(_:)` (a tile file's answer, made once per
    /// file version and sent many times, each time with the file opened for it; an archive
    /// tile's, each time with the bytes read for it).
    public func prepared(bodyCount count: Int) -> HTTPResponse {
        var response = self
        response.preparedHead = HTTPResponseEncoder.fields(of: self, contentLength: count)
        response.fields.value.preparedBodyCount = count
        return response
    }

    /// This prepared response with `file` as its body; `file.count` must be the count the head
    /// was prepared with (`prepared(bodyCount:)`).
    public consuming func sendingFile(_ file: HTTPFileBody) -> HTTPResponse {
        precondition(file.count == fields.value.preparedBodyCount, "a file of another length than the prepared head says")
        self.file = file
        return consume self
    }

    /// This prepared response with `body`; `body.count` must be the count the head was prepared
    /// with (`prepared(bodyCount:)`).
    public consuming func sending(_ body: [UInt8]) -> HTTPResponse {
        precondition(body.count == fields.value.preparedBodyCount, "a body of another length than the prepared head says")
        self.body = body
        return consume self
    }

    /// This prepared response with `lent` as its body; `lent.count` must be the count the head
    /// was prepared with (`prepared(bodyCount:)`).
    public consuming func sending(lent: any HTTPLentBody) -> HTTPResponse {
        precondition(lent.count == fields.value.preparedBodyCount, "a body of another length than the prepared head says")
        self.lent = lent
        return consume self
    }

    /// The length of the body: the file's or the lent body's when there is one, else `body`'s.
    public var contentLength: Int { file?.count ?? lent?.count ?? body.count }

    /// A short plain-text answer; every error answer says what was wrong.
    public static func text(_ status: HTTPStatus, _ message: String, headers: HTTPHeaders = HTTPHeaders()) -> HTTPResponse {
        var headers = headers
        headers.set(.contentType, "text/plain; charset=utf-8")
        return HTTPResponse(status: status, headers: headers, body: Array((message + "\n").utf8))
    }
}
