import Logging
import Sockets

extension HTTPServer {
    /// Counts every answered request in its loop's series, and records its access-log line in
    /// the loop's buffer.
    func requestFinished(
        peer: [UInt8], method: HTTPMethod, target: String, response: HTTPResponse, bytes: Int, started: UInt64,
        context: HTTPLoopContext
    ) {
        let now = Monotonic.nanoseconds
        let nanoseconds = now &- started
        context.metrics.record(route: response.route, status: Int(response.status.code), bytes: bytes, nanoseconds: nanoseconds)
        context.accessLog?.record(HTTPAccessLogEntry(peer: peer, method: method, target: target, status: Int(response.status.code),
                                             bytes: bytes, micros: nanoseconds / 1000, cache: response.note))
    }

    func log(parseError: HTTPParseError, peer: String) {
        logger.info("bad request", metadata: ["peer": "\(peer)", "error": "\(parseError)"])
    }
}
