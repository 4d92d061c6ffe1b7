import TileCache

extension TilePipeline {
    /// The memory cache's outcome for `key`, counted as a hit; nil on a miss (nothing waits,
    /// nothing is filled: the event loop asks this before handing a request to the workers).
    func memoryHit(for key: TileKey, layer: Layer) -> TileOutcome? {
        guard let outcome = cachedOutcome(for: key, layer: layer) else { return nil }
        metrics[layer.name]?.hits.increment()
        return outcome
    }
}
