import Logging
import Sockets

extension HTTPServer {
    /// Counts every answered request, and writes one access-log line for it.
    func requestFinished(
        peer: String, method: HTTPMethod, target: String, response: HTTPResponse, bytes: Int, started: UInt64
    ) {
        let nanoseconds = Monotonic.nanoseconds &- started
        metrics.record(route: response.route, status: Int(response.status.code), bytes: bytes, nanoseconds: nanoseconds)
        guard configuration.accessLog else { return }
        let micros = nanoseconds / 1000
        var metadata: Logger.Metadata = [
            "peer": "\(peer)", "method": "\(method)", "path": "\(target)", "status": "\(response.status.code)",
            "bytes": "\(bytes)", "micros": "\(micros)",
        ]
        if let note = response.note { metadata["cache"] = "\(note)" }
        logger.info("request", metadata: metadata)
    }

    func log(parseError: HTTPParseError, peer: String) {
        logger.info("bad request", metadata: ["peer": "\(peer)", "error": "\(parseError)"])
    }
}
