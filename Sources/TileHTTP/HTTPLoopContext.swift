import Sockets
import Synchronization

/// What each event loop keeps for its connections: the Date line, the access log, the request
/// series, the heads it parsed lately, the buffer sockets are read into and the pipe immutable
/// bodies are sent through.
final class HTTPLoopContext: @unchecked Sendable {
    // `@unchecked Sendable`: `readBuffer`, `splicePipe`, `memo` and `dateCache` are used only on
    // the loop (its thread or serial queue), `readBuffer` and `splicePipe` by one connection at a
    // time (a read is copied into the connection's parser before the next; a send leaves the pipe
    // empty).
    let dateCache = HTTPDateCache()
    let accessLog: HTTPAccessLog?
    let metrics: HTTPLoopMetrics
    /// The request heads this loop parsed lately, and answers it may give again.
    let memo: HTTPHeadMemo
    /// Where a connection of this loop reads its socket into (one per loop, not per connection:
    /// an idle connection holds no read buffer).
    let readBuffer: UnsafeMutableRawBufferPointer
    /// The pipe a connection of this loop sends an immutable lent body through, its pages lent
    /// to the socket (nil where there is none); left empty after each send. Made on first use:
    /// each pipe counts against the user's pipe pages (/proc/sys/fs/pipe-user-pages-soft), and
    /// a loop that never sends such a body needs none.
    var splicePipe: SplicePipe? {
        if let pipe = madePipe.load() { return pipe }
        return SplicePipe().map { madePipe.storeIfNil($0) }
    }
    /// The pipe once made (read by `bytesSentByReference` from any thread).
    private let madePipe = AtomicLazyReference<SplicePipe>()

    /// Body bytes this loop's pipe has sent by reference (from any thread).
    var bytesSentByReference: Int { madePipe.load()?.bytesByReference ?? 0 }

    /// Bytes of `readBuffer`: the most one read takes.
    static let readChunk = 16384

    /// A context; answers marked for reuse are given again for `answerLifetime` seconds (pinned
    /// ones for `pinnedLifetime`), at most `fileAnswers` of them that hold a file open at a
    /// time, and those laid out as they go on the wire take at most `wireBytes`.
    init(
        accessLog: HTTPAccessLog?, metrics: HTTPLoopMetrics, answerLifetime: Double, pinnedLifetime: Double,
        fileAnswers: Int, wireBytes: Int
    ) {
        self.accessLog = accessLog
        self.metrics = metrics
        memo = HTTPHeadMemo(answerLifetime: Monotonic.nanoseconds(answerLifetime),
                            pinnedLifetime: Monotonic.nanoseconds(pinnedLifetime), fileAnswers: fileAnswers,
                            wireBytes: wireBytes)
        readBuffer = .allocate(byteCount: Self.readChunk, alignment: 16)
    }

    deinit { readBuffer.deallocate() }
}
