// Incremental HTTP/1.1 request parser (RFC 9112). Bytes may arrive in any split; the result
// is the same whether the input comes whole, byte by byte or cut anywhere. Limits are checked
// as bytes arrive, so an endless request line or header section never grows the buffer past them.

/// Parses a stream of pipelined requests from bytes that arrive in pieces.
public struct HTTPRequestParser: Sendable {
    /// The limits enforced.
    public let limits: HTTPParserLimits
    /// The loop's remembered heads, if it keeps them: a head seen before is not parsed again.
    let memo: HTTPHeadMemo?

    private var buffer: [UInt8] = []
    /// Start of the request being parsed.
    private var start = 0
    /// Where the search for the end of the header section resumes.
    private var scanIndex = 0
    /// The LF ending the current request line, once it has arrived.
    private var requestLineEnd: Int?
    /// A parsed head waiting for `remaining` body bytes.
    private var pendingHead: (request: HTTPRequest, bodyLength: Int)?
    /// Bytes of empty lines skipped before the current request line: they count toward the
    /// header limit (RFC 9112 §2.2 lets a server ignore them, not take them without end).
    private var leadingEmptyBytes = 0
    /// A request was handed over before its body arrived (`Expect: 100-continue`): the bytes
    /// that follow are that body, not a request, so the parser yields nothing more and the
    /// connection must close after its answer.
    public private(set) var bodyWithheld = false

    private static let lf = UInt8(ascii: "\n")
    private static let cr = UInt8(ascii: "\r")

    /// A parser with the given limits.
    public init(limits: HTTPParserLimits = HTTPParserLimits()) {
        self.init(limits: limits, memo: nil)
    }

    init(limits: HTTPParserLimits, memo: HTTPHeadMemo?) {
        self.limits = limits
        self.memo = memo
    }

    /// Whether bytes of an unfinished request are buffered (a stalled client is mid-request).
    public var hasPartialRequest: Bool {
        pendingHead != nil || buffer[start...].contains { $0 != Self.cr && $0 != Self.lf }
    }

    /// Bytes held that belong to no answered request yet (what a client costs in memory now).
    public var bufferedBytes: Int { buffer.count - start }

    /// Appends received bytes.
    public mutating func append(_ bytes: UnsafeRawBufferPointer) {
        buffer.append(contentsOf: bytes)
    }

    /// Appends received bytes.
    public mutating func append(_ bytes: some Sequence<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete request, nil when more bytes are needed.
    public mutating func next() throws(HTTPParseError) -> HTTPRequest? {
        if bodyWithheld { return nil }
        if pendingHead == nil {
            guard let head = try parseHead() else { return nil }
            pendingHead = head
        }
        guard let (request, bodyLength) = pendingHead else { return nil }
        if buffer.count - start < bodyLength {
            // RFC 9110 §10.1.1: a client that expects 100-continue waits for our status before
            // it sends the body. No route here takes a body, so it gets its final status now.
            guard request.expectsContinue else { return nil }
            bodyWithheld = true
            pendingHead = nil
            return request
        }
        var complete = request
        if bodyLength > 0 { complete.body = Array(buffer[start ..< start + bodyLength]) }
        start += bodyLength
        scanIndex = start
        pendingHead = nil
        compact()
        return complete
    }

    /// Drops consumed bytes from the front: all of them when nothing is left, else when they
    /// are most of the buffer. Indexes into the buffer move with it.
    private mutating func compact() {
        if start == buffer.count {
            buffer.removeAll(keepingCapacity: buffer.capacity <= 65536)
            start = 0
            scanIndex = 0
            requestLineEnd = nil
        } else if start > 4096 && start > buffer.count / 2 {
            buffer.removeFirst(start)
            scanIndex -= start
            requestLineEnd = requestLineEnd.map { $0 - start }
            start = 0
        }
    }

    /// Finds and parses a complete header section, or checks the limits on a partial one.
    private mutating func parseHead() throws(HTTPParseError) -> (request: HTTPRequest, bodyLength: Int)? {
        // RFC 9112 §2.2: ignore empty lines received before the request line, counting them
        // toward the header limit and dropping them from the buffer.
        while start < buffer.count, buffer[start] == Self.cr || buffer[start] == Self.lf {
            if buffer[start] == Self.cr && start + 1 >= buffer.count { break }
            if buffer[start] == Self.cr && buffer[start + 1] != Self.lf { throw .malformedRequestLine }
            let skipped = buffer[start] == Self.cr ? 2 : 1
            start += skipped
            leadingEmptyBytes += skipped
        }
        if leadingEmptyBytes > limits.maxHeaderBytes { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
        compact()
        if start < buffer.count, buffer[start] == Self.cr { return nil }  // a lone CR: its LF is still coming
        scanIndex = max(scanIndex, start)
        let available = buffer.count - start + leadingEmptyBytes
        if requestLineEnd == nil {
            // Resume the search where the last one stopped: byte-by-byte input stays linear.
            requestLineEnd = firstLF(from: scanIndex)
            scanIndex = requestLineEnd ?? buffer.count
        }
        let lineLength = (requestLineEnd ?? buffer.count) - start
        if lineLength > limits.maxRequestLineBytes { throw .requestLineTooLong(limit: limits.maxRequestLineBytes) }
        guard requestLineEnd != nil else {
            if available > limits.maxHeaderBytes { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
            return nil
        }
        guard let headEnd = findHeadEnd() else {
            if available > limits.maxHeaderBytes { throw .headersTooLarge(limit: limits.maxHeaderBytes) }
            return nil
        }
        if headEnd - start + leadingEmptyBytes > limits.maxHeaderBytes {
            throw .headersTooLarge(limit: limits.maxHeaderBytes)
        }
        var head: HTTPRequest
        let bodyLength: Int
        let known = memo.map { memo in buffer.withUnsafeBytes { memo.lookUp(UnsafeRawBufferPointer(rebasing: $0[start ..< headEnd])) } }
        if case .remembered(let remembered) = known {
            (head, bodyLength) = (remembered, 0)  // only heads without a body are remembered
        } else {
            var sections: (memo: HTTPFieldSectionMemo, hash: Int)?
            if let memo, case .unknown(_, let sectionHash) = known { sections = (memo.fieldSections, sectionHash) }
            head = try HTTPHeadParser.parse(buffer[start ..< headEnd], maxFields: limits.maxHeaderFields, sections: sections)
            bodyLength = try HTTPHeadParser.bodyLength(of: head, limit: limits.maxBodyBytes)
            if let memo, case .unknown(let hash, _) = known, bodyLength == 0 {
                buffer.withUnsafeBytes { memo.remember(UnsafeRawBufferPointer(rebasing: $0[start ..< headEnd]), hash: hash, as: head) }
            }
        }
        start = headEnd
        scanIndex = headEnd
        requestLineEnd = nil
        leadingEmptyBytes = 0
        var announced = head
        announced.announcedBodyLength = bodyLength
        return (announced, bodyLength)
    }

    /// The index of the first LF at or after `index` (a browser's head is hundreds of bytes).
    private func firstLF(from index: Int) -> Int? {
        buffer.withUnsafeBytes { $0.firstLineFeed(from: index) }
    }

    /// The index just past the empty line that ends the header section, if it has arrived.
    private mutating func findHeadEnd() -> Int? {
        var index = scanIndex
        while let lf = firstLF(from: index) {
            // An empty line is LF followed by LF or CRLF.
            if lf + 1 < buffer.count, buffer[lf + 1] == Self.lf { return lf + 2 }
            if lf + 2 < buffer.count, buffer[lf + 1] == Self.cr, buffer[lf + 2] == Self.lf { return lf + 3 }
            if lf + 2 >= buffer.count {
                scanIndex = lf  // the terminator may still be arriving: rescan from this LF
                return nil
            }
            index = lf + 1
        }
        scanIndex = max(start, buffer.count - 1)
        return nil
    }
}
