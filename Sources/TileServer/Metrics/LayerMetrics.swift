import CoreMetrics

/// One layer's tile-pipeline counters, made when the service is built. A class: a hit passes
/// them along as one reference, not six.
final class LayerMetrics: Sendable {
    /// Lookups answered from the memory cache.
    let hits: Counter
    /// Lookups that started a fill.
    let misses: Counter
    /// Lookups that joined a fill already under way.
    let coalesced: Counter
    /// Bytes charged to the memory cache for stored outcomes (body and bookkeeping).
    let storedBytes: Counter
    /// Calls to the layer's source for a native tile.
    let providerCalls: Counter
    /// Derived tiles made (`@2x`, downscales) and composites drawn.
    let renders: Counter
    /// Tiles a source gave that are not a tile of the layer's format (`notFormat`) or not a
    /// whole one (`damaged`): answered 502, never kept.
    let rejectedNotFormat: Counter
    let rejectedDamaged: Counter
    /// Cold requests refused at once while the server sheds load (`LoadShedding`).
    let shed: Counter
    /// Disk-tier failures: a read or a write that failed (the tier turns off for a while), a
    /// file that failed its checks (deleted).
    let diskReadFailures: Counter
    let diskWriteFailures: Counter
    let diskCorrupt: Counter
    init(layer: String, factory: any MetricsFactory) {
        let dimensions = [("layer", layer)]
        hits = Counter(label: TileMetrics.cacheHits, dimensions: dimensions, factory: factory)
        misses = Counter(label: TileMetrics.cacheMisses, dimensions: dimensions, factory: factory)
        coalesced = Counter(label: TileMetrics.cacheCoalesced, dimensions: dimensions, factory: factory)
        storedBytes = Counter(label: TileMetrics.cacheStoredBytes, dimensions: dimensions, factory: factory)
        providerCalls = Counter(label: TileMetrics.providerCalls, dimensions: dimensions, factory: factory)
        renders = Counter(label: TileMetrics.renders, dimensions: dimensions, factory: factory)
        rejectedNotFormat = Counter(label: TileMetrics.tilesRejected, dimensions: dimensions + [("reason", "not_format")],
                                    factory: factory)
        rejectedDamaged = Counter(label: TileMetrics.tilesRejected, dimensions: dimensions + [("reason", "damaged")],
                                  factory: factory)
        shed = Counter(label: TileMetrics.shed, dimensions: dimensions, factory: factory)
        func disk(_ kind: String) -> Counter {
            Counter(label: TileMetrics.diskFailures, dimensions: dimensions + [("kind", kind)], factory: factory)
        }
        (diskReadFailures, diskWriteFailures, diskCorrupt) = (disk("read"), disk("write"), disk("corrupt"))
    }

    /// Counts a tile read straight from its file, past the memory cache's fills: a provider
    /// call, and a miss for a layer with a memory cache (`cached`).
    func countPastTheCache(cached: Bool) {
        if cached { misses.increment() }
        providerCalls.increment()
    }
}

/// Every layer's counters, built once and then only read (no lock).
struct PipelineMetrics: Sendable {
    private let byLayer: [String: LayerMetrics]
    /// The same, in order, for a scan: a few layers (the usual case) are found by comparing
    /// names, length first, faster than by hashing the name on every hit.
    private let list: [(name: String, metrics: LayerMetrics)]

    /// Layers up to which a lookup scans `list`.
    private static let scanLimit = 8

    /// Counters for `layers`, made by `factory`.
    init(layers: [String], factory: any MetricsFactory) {
        var byLayer: [String: LayerMetrics] = [:]
        for name in layers where byLayer[name] == nil { byLayer[name] = LayerMetrics(layer: name, factory: factory) }
        self.byLayer = byLayer
        list = byLayer.map { (name: $0.key, metrics: $0.value) }
    }

    /// No counters (a pipeline built without metrics).
    init() {
        byLayer = [:]
        list = []
    }

    subscript(layer: String) -> LayerMetrics? {
        guard list.count <= Self.scanLimit else { return byLayer[layer] }
        let length = layer.utf8.count
        return list.first { $0.name.utf8.count == length && $0.name == layer }?.metrics
    }
}
