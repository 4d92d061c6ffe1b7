import Sockets
import TileCache
import TileProviders

/// What a fill produced: the outcome (or the failure), and what it was read from, for the
/// cache's later checks (`CachedOutcome.validator`).
struct TileFill: Sendable {
    var result: Result<TileOutcome, TileFailure>
    var validator: (any TileValidator)?
    /// The memory cache's entry, kept once its source was found unchanged (`TilePipeline.fill`):
    /// a hit, whose check of its files took a worker.
    var isRevalidatedEntry = false
    /// When the file it holds was found (monotonic nanoseconds), for a tile read straight from
    /// its file and stored with `TilePipeline.store`: its entry counts as checked then, not when
    /// stored, so a read that raced a clear is checked again at the next request (a clear asks
    /// for a check of everything checked before it: `Layer.recheckSources`).
    var readAt: UInt64?

    /// How the cache took part in an answer from this fill: `use`, or a hit for a revalidated entry.
    func cacheUse(_ use: TileCacheUse) -> TileCacheUse { isRevalidatedEntry ? .hit : use }

    /// How the cache takes it, made at `now` (seconds since 1970): "not available now" and stale
    /// copies are handed on, never stored; errors reach the waiters and are not stored either.
    /// `keptInArena`: the outcome goes to the memory cache, so a tile's bytes move to the body
    /// arena (a layer without a memory cache only shares the fill with its waiters: no copy).
    func entry(now: Int, keptInArena: Bool) -> Result<CacheFillResult<CachedOutcome>, TileFailure> {
        result.map { outcome in
            let validatedAt = readAt ?? Monotonic.nanoseconds
            switch outcome {
            case .unavailable:
                return .doNotStore(CachedOutcome(outcome, now: now))
            case .noTile:
                let entry = CachedOutcome(outcome, now: now, validator: validator, validatedAt: validatedAt)
                return .store(entry, cost: entry.cost)
            case .tile(let tile):
                if tile.staleAge != nil { return .doNotStore(CachedOutcome(outcome, now: now)) }
                // A stored tile's bytes go to the body arena: its hits are sent without a copy.
                let entry = CachedOutcome(.tile(keptInArena ? tile.keptInArena() : tile), now: now, validator: validator,
                                          validatedAt: validatedAt)
                return .store(entry, cost: entry.cost)
            }
        }
    }
}

extension CacheFillToken where Key == TileKey, Value == CachedOutcome {
    /// Ends the fill with "not available now" (its waiters answer 503), storing nothing: the work
    /// could not be queued.
    func completeUnavailable() {
        complete(with: .success(.doNotStore(CachedOutcome(.unavailable(retryAfter: 1), now: 0))))
    }
}
