/// What each event loop keeps for its connections: the Date line, the access log and the
/// request series.
final class HTTPLoopContext: Sendable {
    let dateCache = HTTPDateCache()
    let accessLog: HTTPAccessLog?
    let metrics: HTTPLoopMetrics

    init(accessLog: HTTPAccessLog?, metrics: HTTPLoopMetrics) {
        self.accessLog = accessLog
        self.metrics = metrics
    }
}
