import CoreMetrics
import Synchronization

/// Request, latency, byte and connection metrics of an `HTTPServer`, through swift-metrics.
///
/// Requests are labelled by the application's route label (`HTTPResponse.route`) and status,
/// never by path, so the number of series stays small. Each series is made on first use and
/// then found in a table; a request costs one short lock and a few atomic increments.
public final class HTTPServerMetrics: Sendable {
    /// Prefix of every metric name ("http_server" → `http_server_requests_total`).
    public let namespace: String
    /// Where the metrics are made.
    public let factory: any MetricsFactory

    private let openConnections: Meter
    private let acceptedConnections: Counter
    private let rejectedConnections: Counter
    private let series = Mutex<SeriesTable>(SeriesTable())

    /// The route label of a response that names none.
    public static let otherRoute = "other"
    /// The default metric-name prefix.
    public static let defaultNamespace = "http_server"

    /// Metrics made by `factory`; the default is swift-metrics' global factory (a no-op until
    /// the process bootstraps `MetricsSystem`).
    public init(factory: any MetricsFactory = MetricsSystem.factory, namespace: String = defaultNamespace) {
        self.namespace = namespace
        self.factory = factory
        openConnections = Meter(label: "\(namespace)_open_connections", factory: factory)
        acceptedConnections = Counter(label: "\(namespace)_connections_total", factory: factory)
        rejectedConnections = Counter(label: "\(namespace)_connections_rejected_total", factory: factory)
    }

    /// Name of the request counter (labels `route`, `status`).
    public var requestsName: String { "\(namespace)_requests_total" }
    /// Name of the latency histogram, seconds (label `route`).
    public var durationName: String { "\(namespace)_request_duration_seconds" }
    /// Name of the response-bytes counter (label `route`).
    public var bytesName: String { "\(namespace)_response_bytes_total" }
    /// Name of the open-connections gauge.
    public var openConnectionsName: String { "\(namespace)_open_connections" }

    func connectionOpened() {
        acceptedConnections.increment()
        openConnections.increment()
    }

    func connectionClosed() {
        openConnections.decrement()
    }

    func connectionRejected() {
        rejectedConnections.increment()
    }

    /// Counts one answered request: `bytes` written (head and body), `nanoseconds` from the
    /// parsed request to the queued answer.
    func record(route: String?, status: Int, bytes: Int, nanoseconds: UInt64) {
        let key = SeriesKey(route: route ?? Self.otherRoute, status: status)
        let found = series.withLock { $0.byStatus[key] }
        let entry = found ?? makeSeries(key)
        entry.requests.increment()
        entry.route.bytes.increment(by: bytes)
        entry.route.duration.recordNanoseconds(Int64(clamping: nanoseconds))
    }

    /// Makes (outside the lock: a factory may take its own) and registers the series of `key`.
    private func makeSeries(_ key: SeriesKey) -> StatusSeries {
        let existingRoute = series.withLock { $0.byRoute[key.route] }
        let route = existingRoute ?? RouteSeries(
            bytes: Counter(label: bytesName, dimensions: [("route", key.route)], factory: factory),
            duration: Timer(label: durationName, dimensions: [("route", key.route)], factory: factory))
        let made = StatusSeries(
            requests: Counter(label: requestsName, dimensions: [("route", key.route), ("status", String(key.status))],
                              factory: factory),
            route: route)
        return series.withLock { table in
            let route = table.byRoute[key.route] ?? route
            table.byRoute[key.route] = route
            if let raced = table.byStatus[key] { return raced }
            let entry = StatusSeries(requests: made.requests, route: route)
            table.byStatus[key] = entry
            return entry
        }
    }
}

private struct SeriesKey: Hashable {
    let route: String
    let status: Int
}

private struct RouteSeries {
    let bytes: Counter
    let duration: Timer
}

private struct StatusSeries {
    let requests: Counter
    let route: RouteSeries
}

private struct SeriesTable {
    var byStatus: [SeriesKey: StatusSeries] = [:]
    var byRoute: [String: RouteSeries] = [:]
}
