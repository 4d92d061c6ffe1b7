/// A memory-cache entry: an outcome and when it was made, so the tiles of a layer whose tiles
/// can change (`Layer.memoryLifetime`) expire, and go out with their `Age`.
struct CachedOutcome: Sendable {
    /// The tile or "no tile" (never "not available now": that is not stored).
    let outcome: TileOutcome
    /// Seconds since 1970 when the source gave it (for a copy from the disk tier: when it was stored there).
    let storedAt: Int

    /// `outcome`, whose tile carries `storedAt` (for its `Age`).
    var served: TileOutcome {
        guard case .tile(var tile) = outcome, tile.storedAt != storedAt else { return outcome }
        tile.storedAt = storedAt
        return .tile(tile)
    }

    /// Whether it is younger than `lifetime` seconds at `now` (no lifetime: always).
    func isFresh(lifetime: Int?, now: Int) -> Bool {
        guard let lifetime else { return true }
        return now - storedAt < lifetime
    }

    /// The entry of a storable outcome made at `now` (a disk copy keeps its own time).
    init(_ outcome: TileOutcome, now: Int) {
        let storedAt = outcome.servedTile?.storedAt ?? now
        self.storedAt = storedAt
        // The tile keeps the entry's time, so a hit (`served`) hands it out as it is.
        if case .tile(var tile) = outcome, tile.storedAt == nil {
            tile.storedAt = storedAt
            self.outcome = .tile(tile)
        } else {
            self.outcome = outcome
        }
    }
}
