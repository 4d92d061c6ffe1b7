import Synchronization
import TileProviders

/// A memory-cache entry: an outcome, when it was made (the tiles of a layer whose tiles can
/// change, `Layer.memoryLifetime`, expire, and go out with their `Age`), and what it was read
/// from (`validator`), checked again once `cache.revalidateSeconds` have passed since the last
/// check (SPEC "Freshness"): a file or archive changed on disk is served within that time.
final class CachedOutcome: Sendable {
    /// The tile or "no tile" (never "not available now": that is not stored).
    let outcome: TileOutcome
    /// Seconds since 1970 when the source gave it (for a copy from the disk tier: when it was stored there).
    let storedAt: Int
    /// What the outcome was read from; nil when nothing can change it but a clear (generated
    /// tiles) or it expires instead (upstream tiles, `memoryLifetime`).
    let validator: (any TileValidator)?
    /// When (`Monotonic.nanoseconds`) `validator` last found the source unchanged.
    private let validated: Atomic<UInt64>

    /// The entry of `outcome` made at `now` (seconds since 1970; a disk copy keeps its own time),
    /// read from what `validator` checks, found current at `validatedAt` (monotonic nanoseconds).
    init(_ outcome: TileOutcome, now: Int, validator: (any TileValidator)? = nil, validatedAt: UInt64 = 0) {
        let storedAt = outcome.servedTile?.storedAt ?? now
        self.storedAt = storedAt
        // The tile keeps the entry's time, so a hit hands it out as it is.
        if case .tile(var tile) = outcome, tile.storedAt == nil {
            tile.storedAt = storedAt
            self.outcome = .tile(tile)
        } else {
            self.outcome = outcome
        }
        self.validator = validator
        validated = Atomic(validatedAt)
    }

    /// Whether it is younger than `lifetime` seconds at `now` (no lifetime: always).
    func isFresh(lifetime: Int?, now: Int) -> Bool {
        guard let lifetime else { return true }
        return now - storedAt < lifetime
    }

    /// Whether its source must be checked again before it is served at `now` (monotonic
    /// nanoseconds): it has a validator, last found current `interval` or more nanoseconds ago,
    /// or before `since` (the layer's sources were checked again then: `Layer.recheckSources`).
    func isDue(at now: UInt64, interval: UInt64, since: UInt64) -> Bool {
        guard validator != nil else { return false }
        let last = validated.load(ordering: .relaxed)
        return now &- last >= interval || last < since
    }

    /// Whether it may be served without its check while the server sheds load: within its
    /// `lifetime` at `now` (seconds since 1970), and checked since `since` (a clear-cache or a
    /// reload asked for a check: that one is never skipped).
    func mayServeUnchecked(lifetime: Int?, now: Int, since: UInt64) -> Bool {
        isFresh(lifetime: lifetime, now: now) && validated.load(ordering: .relaxed) >= since
    }

    /// Notes that the source was found unchanged at `now` (monotonic nanoseconds).
    func markValidated(at now: UInt64) {
        validated.store(now, ordering: .relaxed)
    }

    /// Bytes it costs in the cache.
    var cost: Int { outcome.cost }
}
