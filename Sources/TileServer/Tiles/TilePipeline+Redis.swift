import TileCache

extension TilePipeline {
    /// What the shared Redis tier gives a memory miss of `key`: a fresh copy, or an expired one
    /// (for stale-if-error) and the writer that stores the fill's outcome under the generation
    /// just read. Nothing when the layer does not use the tier, or Redis did not answer (the
    /// fill goes on from this replica's own tiers and is not stored there). Blocking: a worker.
    func sharedTier(
        _ key: TileKey, layer: Layer
    ) -> (fresh: TileOutcome?, expired: CachedOutcome?, write: (@Sendable (TileOutcome) -> Void)?) {
        guard let redis, layer.usesRedis else { return (nil, nil, nil) }
        switch redis.lookup(key, lifetime: layer.memoryLifetime) {
        case .hit(let outcome):
            return (outcome, nil, nil)
        case .expired(let record, let generation):
            return (nil, CachedOutcome(record.outcome, now: record.storedAt),
                    { redis.storeLater($0, for: key, generation: generation) })
        case .miss(let generation):
            return (nil, nil, { redis.storeLater($0, for: key, generation: generation) })
        case .unavailable:
            return (nil, nil, nil)
        }
    }

    /// Moves `layer` to a new generation in Redis, when it uses the shared tier: every
    /// replica's next lookup misses its older tiles.
    func clearSharedTier(of layer: Layer) -> Result<Int?, CacheError> {
        guard let redis, layer.usesRedis else { return .success(0) }
        switch redis.clear(layer: layer.name) {
        case .success: return .success(0)
        case .failure(let error): return .failure(.sharedTierUnreachable(reason: error.description))
        }
    }

    /// Suspends until the shared tier's queued writes were sent.
    func waitForSharedWrites() async {
        await redis?.waitForWrites()
    }
}

extension Layer {
    /// Whether the layer opted in to the shared Redis tier (`cache: {redis: true}`).
    var usesRedis: Bool { settings.cache.redis ?? false }
}
