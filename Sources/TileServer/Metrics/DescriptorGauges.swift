import Prometheus
import Sockets
import Synchronization

/// Descriptor pressure as Prometheus series (`DescriptorBudget`), brought up to date when
/// `/metrics` is read: descriptors open and the limit, connections answered 503 and tile files
/// refused for want of descriptors, `EMFILE`/`ENFILE` seen, accept pauses.
final class DescriptorGauges: Sendable {
    private let open: Gauge
    private let limit: Gauge
    private let refusedConnections: Counter
    private let refusedFiles: Counter
    private let exhausted: Counter
    private let pauses: Counter
    /// What the counters already hold.
    private let seen = Mutex((connections: 0, files: 0, exhausted: 0, pauses: 0))

    init(registry: PrometheusCollectorRegistry) {
        func described(_ name: String) -> MetricNameDescriptor {
            MetricNameDescriptor(metricName: name, unitName: "", helpText: TileMetrics.help[name] ?? "")
        }
        open = registry.makeGauge(descriptor: described(TileMetrics.descriptorsOpen))
        limit = registry.makeGauge(descriptor: described(TileMetrics.descriptorsLimit))
        refusedConnections = registry.makeCounter(descriptor: described(TileMetrics.descriptorRefusals), labels: [("what", "connection")])
        refusedFiles = registry.makeCounter(descriptor: described(TileMetrics.descriptorRefusals), labels: [("what", "file")])
        exhausted = registry.makeCounter(descriptor: described(TileMetrics.descriptorsExhausted))
        pauses = registry.makeCounter(descriptor: described(TileMetrics.acceptPauses))
    }

    /// Sets the series from `budget` now.
    func update(from budget: DescriptorBudget = .process) {
        open.set(Double(budget.open))
        limit.set(Double(budget.limit))
        let now = budget.pressure
        let before = seen.withLock { seen in
            defer { seen = now }
            return seen
        }
        func add(_ counter: Counter, _ value: Int, _ old: Int) { if value > old { counter.increment(by: Int64(value - old)) } }
        add(refusedConnections, now.connections, before.connections)
        add(refusedFiles, now.files, before.files)
        add(exhausted, now.exhausted, before.exhausted)
        add(pauses, now.pauses, before.pauses)
    }
}
