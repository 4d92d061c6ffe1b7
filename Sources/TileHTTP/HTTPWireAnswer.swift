/// An answer a loop gives again often (`HTTPHeadMemo`), laid out in the body arena as it goes on
/// the wire, head and body together: one `sendfile` sends the whole response, where an answer
/// otherwise takes a `writev` of its head and a `sendfile` of its body (each system call into
/// the socket costs about as much as the other, and nginx spends two as well).
///
/// The head is the answer's prepared fields, the Date line and the keep-alive end of the head;
/// its body a copy of the answer's body from the arena. Only the Date changes from one response
/// to the next: each second the first page (the head and the body's first bytes) is written
/// again, after the old page is punched out, so a send still in the kernel keeps the old page
/// and its head whole; a response queued with the head of a second before, or one the socket
/// took only part of, goes on from its own copy of the head (`HTTPOutputQueue.append(_:head:)`). It costs its loop a copy of the body, once, and a page
/// write a second; so only answers given again `HTTPHeadMemo.wireThreshold` times get one.
///
/// `@unchecked Sendable`: made, written and sent on one loop only (its memo's), like the memo.
final class HTTPWireAnswer: @unchecked Sendable {
    /// The body copied, kept so an answer with the same body is told by identity (its owner
    /// cannot be freed and another take its place while this lives).
    private let source: HTTPFileBody
    /// The answer's prepared fields (status line, headers, Content-Length).
    private let fields: [UInt8]
    /// Head and body in the arena.
    private let region: HTTPArenaBody
    /// The head as the region holds it now: `fields`, the Date line, `tail` (the start of
    /// `firstPage`, as an array of its own: queued responses keep it, `append(_:head:)`).
    private(set) var head: [UInt8]
    /// The region's first page as written now (the head and the body's first bytes).
    private var firstPage: [UInt8]
    /// The Date line in `head`; empty before the first page is written.
    private var dateLine: [UInt8] = []
    /// A first page that could not be written again: never sent again.
    private var broken = false

    /// The end of a keep-alive HTTP/1.1 head (no Connection field): the one tail a wire answer has.
    static let tail = HTTPResponseEncoder.tail(keepAlive: true, version: .http1_1)
    /// "Date: " + an IMF-fixdate (29 bytes) + CRLF.
    static let dateLineCount = 37

    /// The answer's pages in the arena, for the memo's bound on them.
    var memoryBytes: Int { region.span }

    /// A wire answer for `answer`, or nil when it is not one that can have one: a body in the
    /// arena and prepared fields, or when the arena cannot take it.
    init?(_ answer: HTTPResponse) {
        guard let source = answer.file, !source.holdsOpenFile, let fields = answer.preparedHead,
              !answer.status.forbidsBody
        else { return nil }
        let headCount = fields.count + Self.dateLineCount + Self.tail.count
        guard headCount < HTTPBodyArena.pageSize, let body = source.read(),
              let region = HTTPBodyArena.place(count: headCount + body.count)
        else { return nil }
        head = fields + [UInt8](repeating: 0, count: Self.dateLineCount) + Self.tail
        let firstPageCount = min(region.count, HTTPBodyArena.pageSize)
        let onFirstPage = firstPageCount - headCount  // of the body
        firstPage = head + body[..<onFirstPage]
        // The body after the first page now; the first page when a Date is known (`fileBody`).
        guard body.withUnsafeBytes({ region.write(UnsafeRawBufferPointer(rebasing: $0[onFirstPage...]), at: firstPageCount) })
        else { return nil }
        self.source = source
        self.fields = fields
        self.region = region
    }

    /// Whether `answer` is the one this was made from: the same body (its owner, which holds
    /// one file, and the range of it) and the same fields.
    func matches(_ answer: HTTPResponse) -> Bool {
        guard let file = answer.file else { return false }
        return file.owner === source.owner && file.offset == source.offset && file.count == source.count
            && answer.preparedHead == fields
    }

    /// The whole response as a region of the arena, with `dateLine` in its head; nil when the
    /// head would end in another `tail` than a wire answer's (a connection that closes, an
    /// HTTP/1.0 keep-alive), or the first page cannot be written.
    func fileBody(dateLine: [UInt8], tail: [UInt8]) -> HTTPFileBody? {
        guard !broken, tail == Self.tail else { return nil }
        if dateLine != self.dateLine {
            guard dateLine.count == Self.dateLineCount else { return nil }
            firstPage.replaceSubrange(fields.count ..< fields.count + Self.dateLineCount, with: dateLine)
            head = Array(firstPage[..<head.count])
            guard region.replaceFirstPage(with: firstPage) else {
                broken = true
                return nil
            }
            self.dateLine = dateLine
        }
        // Owned by this answer (which holds the region): a queue tells from it whether the head
        // it holds is still the one in the file (`HTTPOutputQueue.write`).
        let whole = region.fileBody
        return HTTPFileBody(descriptor: whole.descriptor, offset: whole.offset, count: whole.count, owner: self, shared: true)
    }
}
