import CoreMetrics

/// Counters of one upstream source: requests sent and failures by kind. Made once, when the
/// provider is built; counting is an atomic increment.
public struct UpstreamMetrics: Sendable {
    /// Name of the requests counter.
    public static let requestsName = "tilelayer_upstream_requests_total"
    /// Name of the failures counter (label `kind`: timeout, connect, status5xx, other).
    public static let failuresName = "tilelayer_upstream_failures_total"

    private let requests: Counter
    private let failures: [UpstreamFailureKind: Counter]

    /// Counters made by `factory` (by default swift-metrics' global one), each series with
    /// `dimensions` (the layer, say) besides its own.
    public init(factory: any MetricsFactory = MetricsSystem.factory, dimensions: [(String, String)] = []) {
        requests = Counter(label: Self.requestsName, dimensions: dimensions, factory: factory)
        var failures: [UpstreamFailureKind: Counter] = [:]
        for kind in UpstreamFailureKind.allCases {
            failures[kind] = Counter(label: Self.failuresName, dimensions: dimensions + [("kind", kind.rawValue)],
                                     factory: factory)
        }
        self.failures = failures
    }

    func requestSent() {
        requests.increment()
    }

    func failed(_ kind: UpstreamFailureKind) {
        failures[kind]?.increment()
    }
}
