import CoreMetrics
import Synchronization

/// The shared Redis tier's counters: hits, misses, stored values and corrupt values by layer,
/// failures by kind (`connect`, `timeout`, `io`, `protocol`, `server`, `backoff`, `dropped`).
final class RedisMetrics: Sendable {
    private let factory: any MetricsFactory
    private let counters = Mutex<[String: Counter]>([:])

    init(factory: any MetricsFactory) {
        self.factory = factory
    }

    func hit(layer: String) { counter(TileMetrics.redisHits, ("layer", layer)).increment() }
    func miss(layer: String) { counter(TileMetrics.redisMisses, ("layer", layer)).increment() }
    func stored(layer: String) { counter(TileMetrics.redisStored, ("layer", layer)).increment() }
    func corrupt(layer: String) { counter(TileMetrics.redisCorrupt, ("layer", layer)).increment() }
    func error(kind: String) { counter(TileMetrics.redisErrors, ("kind", kind)).increment() }

    /// One counter per label and dimension, made once (layer names and kinds are bounded sets).
    private func counter(_ label: String, _ dimension: (String, String)) -> Counter {
        let name = label + "|" + dimension.1
        if let made = counters.withLock({ $0[name] }) { return made }
        let made = Counter(label: label, dimensions: [dimension], factory: factory)
        counters.withLock { $0[name] = made }
        return made
    }
}
