import Dispatch
import Logging

extension HTTPServer {
    /// One access-log line per answered request.
    func requestFinished(
        peer: String, method: HTTPMethod, target: String, response: HTTPResponse, bytes: Int, started: DispatchTime
    ) {
        guard configuration.accessLog else { return }
        let micros = (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1000
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
