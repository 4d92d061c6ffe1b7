import Logging
import TileCache

extension TilePipeline {
    /// A memory miss: the layer's disk tier when it has a fresh copy, else the source; a tile or
    /// "no tile" the source gives is then written to disk (queued, off the request's path). When
    /// the source fails or has the tile "not available now" and the disk holds an expired copy,
    /// that copy is served stale (RFC 5861 `stale-if-error`) with its age, and logged.
    func fill(
        _ key: TileKey, layer: Layer, counters: LayerMetrics?, completion: @escaping Completion
    ) -> Result<TileOutcome, TileFailure>? {
        guard let tier = layer.diskTier else { return produce(key, layer: layer, counters: counters, completion: completion) }
        register(tier)
        var expired: DiskRecord?
        switch tier.lookup(key, maxAge: layer.settings.maxAge, logger: logger) {
        case .fresh(let outcome): return .success(outcome)
        case .expired(let record): expired = record
        case .none: break
        }
        let generation = tier.generation
        let copy = expired
        let finish: @Sendable (Result<TileOutcome, TileFailure>) -> Result<TileOutcome, TileFailure> = { [logger] result in
            switch result {
            case .success(.unavailable), .failure:
                guard let copy else { return result }
                return .success(Self.stale(copy, key: key, because: result, logger: logger))
            case .success(let outcome):
                tier.storeLater(outcome, for: key, generation: generation, logger: logger)
                return result
            }
        }
        return produce(key, layer: layer, counters: counters) { completion(finish($0)) }.map(finish)
    }

    /// The expired copy as a stale answer, logged with the layer, tile, age and the reason.
    private static func stale(
        _ record: DiskRecord, key: TileKey, because result: Result<TileOutcome, TileFailure>, logger: Logger
    ) -> TileOutcome {
        let age = max(0, LayerDiskTier.now() - record.storedAt)
        let reason: String
        switch result {
        case .failure(let failure): reason = failure.error.description
        default: reason = "not available now"
        }
        logger.warning("serving a stale copy from the disk cache: the source failed",
                       metadata: ["layer": "\(key.layer)", "tile": "\(key)", "age": "\(age)", "reason": "\(reason)"])
        guard case .tile(var tile) = record.outcome else { return .noTile }
        tile.staleAge = age
        return .tile(tile)
    }

    /// Remembers `tier` under its layer's name, for `clear(layer:where:)` and `waitForDiskWrites`.
    func register(_ tier: LayerDiskTier) {
        diskTiers.withLock { tiers in
            if tiers[tier.layer] !== tier { tiers[tier.layer] = tier }
        }
    }

    /// Drops the cached answers of `layer` for which `matches` holds (all when nil), on disk
    /// (when the pipeline has seen the layer's disk tier; see `clear(layer: Layer, …)`) and in
    /// memory. Fills in progress for those keys are retired: their results reach their waiters
    /// but are not stored, so no answer after this returns carries a tile from before it.
    /// The disk goes first, so a fill starting in between cannot copy an old file into memory.
    /// Blocking file I/O: call it on a Dispatch thread.
    @discardableResult
    func clear(layer: String, where matches: (@Sendable (TileKey) -> Bool)? = nil) -> Result<Int?, CacheError> {
        var result: Result<Int?, CacheError> = .success(0)
        if let tier = diskTiers.withLock({ $0[layer] }) {
            do {
                result = .success(try tier.clear(where: matches, logger: logger))
            } catch {
                logger.error("disk cache: clearing failed", metadata: ["layer": "\(layer)", "error": "\(error)"])
                result = .failure(error)
            }
        }
        cache.removeAll { key in key.layer == layer && (matches?(key) ?? true) }
        return result
    }

    /// `clear(layer:where:)` for a layer whose disk tier may not have been used yet.
    @discardableResult
    func clear(layer: Layer, where matches: (@Sendable (TileKey) -> Bool)? = nil) -> Result<Int?, CacheError> {
        if let tier = layer.diskTier { register(tier) }
        layer.openFiles?.removeAll(where: matches)
        return clear(layer: layer.name, where: matches)
    }

    /// Suspends until every disk tier has at most `limit` writes queued (0: all written).
    func waitForDiskWrites(below limit: Int = 0) async {
        for tier in diskTiers.withLock({ Array($0.values) }) { await tier.waitForWrites(below: limit) }
    }
}
