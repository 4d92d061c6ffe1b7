import Sockets

/// What each event loop keeps for its connections: the Date line, the access log, the request
/// series, the heads it parsed lately, and the buffer sockets are read into.
final class HTTPLoopContext: @unchecked Sendable {
    // `@unchecked Sendable`: `readBuffer` and `memo` are used only on the loop (its thread or
    // serial queue), `readBuffer` by one connection at a time (a read is copied into the
    // connection's parser before the next).
    let dateCache = HTTPDateCache()
    let accessLog: HTTPAccessLog?
    let metrics: HTTPLoopMetrics
    /// The request heads this loop parsed lately, and answers it may give again.
    let memo: HTTPHeadMemo
    /// Where a connection of this loop reads its socket into (one per loop, not per connection:
    /// an idle connection holds no read buffer).
    let readBuffer: UnsafeMutableRawBufferPointer

    /// Bytes of `readBuffer`: the most one read takes.
    static let readChunk = 16384

    /// A context; answers marked for reuse are given again for `answerLifetime` seconds, at most
    /// `fileAnswers` of them that hold a file open at a time, and those laid out as they go on
    /// the wire take at most `wireBytes`.
    init(accessLog: HTTPAccessLog?, metrics: HTTPLoopMetrics, answerLifetime: Double, fileAnswers: Int, wireBytes: Int) {
        self.accessLog = accessLog
        self.metrics = metrics
        memo = HTTPHeadMemo(answerLifetime: Monotonic.nanoseconds(answerLifetime), fileAnswers: fileAnswers,
                            wireBytes: wireBytes)
        readBuffer = .allocate(byteCount: Self.readChunk, alignment: 16)
    }

    deinit { readBuffer.deallocate() }
}
