import Prometheus
import Synchronization
import TileCache

/// The memory cache's totals as Prometheus series, brought up to date when `/metrics` is read
/// (the cache keeps its own counters; nothing is added to the lookup path).
final class CacheGauges: Sendable {
    private let bytes: Gauge
    private let entries: Gauge
    private let capacity: Gauge
    private let evictions: Counter
    /// Evictions already added to `evictions`.
    private let evictionsSeen = Mutex(0)

    init(registry: PrometheusCollectorRegistry) {
        func described(_ name: String) -> MetricNameDescriptor {
            MetricNameDescriptor(metricName: name, unitName: "", helpText: TileMetrics.help[name] ?? "")
        }
        bytes = registry.makeGauge(descriptor: described(TileMetrics.cacheBytes))
        entries = registry.makeGauge(descriptor: described(TileMetrics.cacheEntries))
        capacity = registry.makeGauge(descriptor: described(TileMetrics.cacheCapacity))
        evictions = registry.makeCounter(descriptor: described(TileMetrics.cacheEvictions))
    }

    /// Sets the series from snapshots of the tile cache and of the decoded tiles of views: bytes
    /// and capacity count both (together they are `server.cache.memoryBytes`), entries and
    /// evictions the tile cache's.
    func update(from statistics: CacheStatistics, decodedTiles: CacheStatistics) {
        bytes.set(Double(statistics.bytes + decodedTiles.bytes))
        entries.set(Double(statistics.count))
        capacity.set(Double(statistics.capacity + decodedTiles.capacity))
        let added = evictionsSeen.withLock { seen in
            let added = max(0, statistics.evictions - seen)
            seen = max(seen, statistics.evictions)
            return added
        }
        if added > 0 { evictions.increment(by: Int64(added)) }
    }
}
