import Synchronization

/// The `Date: …\r\n` header line, formatted at most once a second for all responses.
final class HTTPDateCache: Sendable {
    private let state = Mutex<(second: Int, line: [UInt8])>((second: -1, line: []))

    /// The current `Date` header line, with its CRLF.
    var headerLine: [UInt8] {
        let now = HTTPDate.now
        return state.withLock { cached in
            if cached.second != now {
                cached = (now, Array("Date: \(HTTPDate.format(secondsSince1970: now))\r\n".utf8))
            }
            return cached.line
        }
    }
}
