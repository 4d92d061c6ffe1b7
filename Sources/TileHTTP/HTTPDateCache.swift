/// The `Date: …\r\n` header line, formatted at most once a second: one per event loop
/// (`HTTPLoopContext`), for the answers its connections send. Not `Sendable`: used only on its
/// loop (its thread or serial queue), so read and renewed there without a lock.
final class HTTPDateCache {
    private var second = -1
    private var line: [UInt8] = []

    /// The current `Date` header line, with its CRLF.
    var headerLine: [UInt8] {
        let now = HTTPDate.now
        if second != now {
            second = now
            line = Array("Date: \(HTTPDate.format(secondsSince1970: now))\r\n".utf8)
        }
        return line
    }
}
