import CoreMetrics
import Synchronization

/// Request, latency, byte and connection metrics of an `HTTPServer`.
///
/// Requests are labelled by the application's route label (`HTTPResponse.route`) and status,
/// never by path, so the number of series stays small. Each event loop counts its requests in
/// series of its own (`HTTPLoopMetrics`: no lock, no shared cache line), and a scrape sums them:
/// `emit(into:)` writes the request, byte and latency families in the Prometheus text format.
/// Connections, counted once per connection, go through a swift-metrics factory.
public final class HTTPServerMetrics: Sendable {
    /// Prefix of every metric name ("http_server" → `http_server_requests_total`).
    public let namespace: String

    private let openConnections: Meter
    private let acceptedConnections: Counter
    private let rejectedConnections: Counter
    /// Upper bounds of the latency histogram's buckets, nanoseconds.
    let bucketBounds: [Int]
    /// Every loop's series, for scrapes (appended to when a loop meets a new route or status).
    let series = Mutex<[HTTPRequestSeries]>([])

    /// The route label of a response that names none.
    public static let otherRoute = "other"
    /// The default metric-name prefix.
    public static let defaultNamespace = "http_server"

    /// The Prometheus client's default latency buckets (5 ms to 10 s).
    public static let defaultLatencyBuckets: [Duration] = [5, 10, 25, 50, 100, 250, 500, 1000, 2500, 5000, 10000]
        .map { .milliseconds($0) }

    /// Metrics whose connection counts go to `factory` (by default swift-metrics' global
    /// factory, a no-op until the process bootstraps `MetricsSystem`), with a latency
    /// histogram of `latencyBuckets`.
    public init(
        factory: any MetricsFactory = MetricsSystem.factory, namespace: String = defaultNamespace,
        latencyBuckets: [Duration] = defaultLatencyBuckets
    ) {
        self.namespace = namespace
        bucketBounds = latencyBuckets.map { Int($0.components.seconds) * 1_000_000_000 + Int($0.components.attoseconds / 1_000_000_000) }
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

    /// A loop's series (made once per event loop).
    func makeLoopMetrics() -> HTTPLoopMetrics {
        HTTPLoopMetrics(server: self)
    }

    func register(_ loopSeries: HTTPRequestSeries) {
        series.withLock { $0.append(loopSeries) }
    }
}
