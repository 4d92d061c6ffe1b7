/// What each event loop keeps for its connections: the Date line, the access log, the request
/// series, the heads it parsed lately and the buffer sockets are read into.
final class HTTPLoopContext: @unchecked Sendable {
    // `@unchecked Sendable`: `readBuffer`, `memo` and `dateCache` are used only on the loop (its
    // thread or serial queue), `readBuffer` by one connection at a time (a read is copied into
    // the connection's parser before the next).
    let dateCache = HTTPDateCache()
    let accessLog: HTTPAccessLog?
    let metrics: HTTPLoopMetrics
    /// The request heads this loop parsed lately.
    let memo = HTTPHeadMemo()
    /// Where a connection of this loop reads its socket into (one per loop, not per connection:
    /// an idle connection holds no read buffer).
    let readBuffer: UnsafeMutableRawBufferPointer

    /// Bytes of `readBuffer`: the most one read takes.
    static let readChunk = 16384

    init(accessLog: HTTPAccessLog?, metrics: HTTPLoopMetrics) {
        self.accessLog = accessLog
        self.metrics = metrics
        readBuffer = .allocate(byteCount: Self.readChunk, alignment: 16)
    }

    deinit { readBuffer.deallocate() }
}
