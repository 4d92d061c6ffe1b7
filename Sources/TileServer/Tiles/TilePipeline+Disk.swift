import Logging
import TileCache

extension TilePipeline {
    /// A memory miss: the shared Redis tier (layers with `cache.redis`), then the layer's disk
    /// tier, when one has a fresh copy, else the source; a tile or "no tile" the disk or the
    /// source gives is then written to Redis, and one the source gives to disk (queued, off the
    /// request's path). When the source fails or has the tile "not available now" and an
    /// expired copy is at hand (the memory entry that `expired` is, else Redis's or the disk's),
    /// that copy is served stale (RFC 5861 `stale-if-error`) with its age, and logged.
    func produceThroughTiers(
        _ key: TileKey, layer: Layer, counters: LayerMetrics?, expired: CachedOutcome? = nil,
        completion: @escaping Completion
    ) -> TileFill? {
        let shared = sharedTier(key, layer: layer)
        if let fresh = shared.fresh { return TileFill(result: .success(fresh), validator: nil) }
        var copy = expired ?? shared.expired
        var write = shared.write
        if let tier = layer.diskTier {
            register(tier)
            switch tier.lookup(key, maxAge: layer.settings.ttl ?? layer.settings.maxAge, logger: logger, counters: counters) {
            case .fresh(let outcome):
                write?(outcome)
                return TileFill(result: .success(outcome), validator: nil)
            case .expired(let record): copy = copy ?? CachedOutcome(record.outcome, now: record.storedAt)
            case .none: break
            }
            let generation = tier.generation
            let writer = layer.build
            write = { [logger, write] outcome in
                write?(outcome)
                tier.storeLater(outcome, for: key, generation: generation, writer: writer, logger: logger, counters: counters)
            }
        }
        guard copy != nil || write != nil else { return produce(key, layer: layer, counters: counters, completion: completion) }
        let stale = copy
        let finish: @Sendable (TileFill) -> TileFill = { [logger, write] fill in
            switch fill.result {
            case .success(.unavailable), .failure:
                guard let stale else { return fill }
                return TileFill(result: .success(Self.stale(stale, key: key, because: fill.result, logger: logger)), validator: nil)
            case .success(let outcome):
                write?(outcome)
                return fill
            }
        }
        return produce(key, layer: layer, counters: counters) { completion(finish($0)) }.map(finish)
    }

    /// The expired copy as a stale answer, logged with the layer, tile, age and the reason.
    private static func stale(
        _ copy: CachedOutcome, key: TileKey, because result: Result<TileOutcome, TileFailure>, logger: Logger
    ) -> TileOutcome {
        let age = max(0, LayerDiskTier.now() - copy.storedAt)
        let reason: String
        switch result {
        case .failure(let failure): reason = failure.error.description
        default: reason = "not available now"
        }
        logger.warning("serving a stale copy: the source failed",
                       metadata: ["layer": "\(key.layer)", "tile": "\(key)", "age": "\(age)", "reason": "\(reason)"])
        guard case .tile(var tile) = copy.outcome else { return .noTile }
        tile.storedAt = copy.storedAt
        tile.staleAge = age
        return .tile(tile)
    }

    /// Remembers `tier` under its layer's name, for `clear(layer:where:)` and `waitForDiskWrites`.
    func register(_ tier: LayerDiskTier) {
        diskTiers.withLock { tiers in
            if tiers[tier.layer] !== tier { tiers[tier.layer] = tier }
        }
    }

    /// Keeps only the disk tiers of `layers` (after a reload: the tiers of removed layers, and
    /// those a rebuilt layer no longer uses, are released).
    func keepDiskTiers(of layers: [Layer]) {
        let current = Dictionary(layers.compactMap { layer in layer.diskTier.map { (layer.name, $0) } },
                                 uniquingKeysWith: { first, _ in first })
        diskTiers.withLock { $0 = current }
    }

    /// Drops the cached answers of the layer called `layer` for which `matches` holds (all when
    /// nil), on disk (when the pipeline knows its tier) and in memory, for a layer this server
    /// does not serve (an offline clear); see `clear(layer: Layer, …)` for served layers.
    @discardableResult
    func clear(layer: String, where matches: (@Sendable (TileKey) -> Bool)? = nil) -> Result<Int?, CacheError> {
        let result = clearDisk(diskTiers.withLock { $0[layer] }, where: matches)
        removeFromMemory(layer: layer, where: matches)
        return result
    }

    /// Drops the cached answers of `layer` for which `matches` holds (all when nil), and those
    /// of the composites drawn from it (`dependents`); in the shared Redis tier, the whole layer
    /// moves to a new generation (a failure to reach Redis is reported, the rest is cleared). Disk first (a clear waits for the tier's
    /// queued writes, and writes queued before it are dropped), then memory: a full clear moves
    /// the layer to a new generation, a partial one retires the matching entries and fills. Fills
    /// in progress reach their waiters but are not stored, so no answer after this returns
    /// carries a tile from before it. Blocking file I/O: call it on a Dispatch thread.
    @discardableResult
    func clear(
        layer: Layer, where matches: (@Sendable (TileKey) -> Bool)? = nil, dependents: [Layer] = []
    ) -> Result<Int?, CacheError> {
        var result = clearDisk(layer.diskTier, where: matches)
        // Redis keeps no index by tile: a partial clear moves the whole layer to a new generation there.
        if case .failure(let error) = clearSharedTier(of: layer), case .success = result { result = .failure(error) }
        if matches == nil { layer.countClear() }
        removeFromMemory(layer: layer.name, where: matches)
        for composite in dependents {
            if case .failure(let error) = clear(layer: composite, where: matches), case .success = result { result = .failure(error) }
        }
        return result
    }

    private func clearDisk(_ tier: LayerDiskTier?, where matches: (@Sendable (TileKey) -> Bool)?) -> Result<Int?, CacheError> {
        guard let tier else { return .success(0) }
        return tier.clear(where: matches).mapError { error in
            logger.error("disk cache: clearing failed", metadata: ["layer": "\(tier.layer)", "error": "\(error)"])
            return error
        }
    }

    private func removeFromMemory(layer: String, where matches: (@Sendable (TileKey) -> Bool)?) {
        let drop = { (key: TileKey) -> Bool in key.layer == layer && (matches?(key) ?? true) }
        cache.removeAll(where: drop)
        uncachedFills.removeAll(where: drop)
    }

    /// Suspends until every disk tier has at most `limit` writes queued (0: all written).
    func waitForDiskWrites(below limit: Int = 0) async {
        for tier in diskTiers.withLock({ Array($0.values) }) { await tier.waitForWrites(below: limit) }
    }
}
