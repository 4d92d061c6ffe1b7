import TileCache

extension TilePipeline {
    /// The memory cache's outcome for `key`, counted as a hit in `counters` (the layer's, when
    /// the caller has them already; else they are looked up); nil on a miss (nothing waits,
    /// nothing is filled: the event loop asks this before handing a request to the workers).
    /// `countingRequest`: see `cachedOutcome(for:layer:countingRequest:)`.
    func memoryHit(
        for key: TileKey, layer: Layer, counters: LayerMetrics? = nil, countingRequest: Bool = false
    ) -> TileOutcome? {
        guard let outcome = cachedOutcome(for: key, layer: layer, countingRequest: countingRequest) else { return nil }
        (counters ?? metrics[layer.name])?.hits.increment()
        return outcome
    }
}
