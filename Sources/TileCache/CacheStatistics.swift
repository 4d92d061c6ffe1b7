/// A snapshot of a `MemoryCache`'s counters, summed over its shards.
///
/// Shards are read one after another, so under concurrent use the sums are
/// approximate; once the cache is quiet they are exact.
public struct CacheStatistics: Sendable, Hashable {
    /// Lookups that found a stored value.
    public var hits: Int
    /// Lookups that found nothing stored (including those that joined or started a fill).
    public var misses: Int
    /// Entries dropped to keep the cache within its capacity.
    public var evictions: Int
    /// Fills started: lookups answered `mustFill`.
    public var fills: Int
    /// Sum of the costs of the stored entries.
    public var bytes: Int
    /// Number of stored entries.
    public var count: Int
    /// The configured capacity in bytes (0: the cache stores nothing).
    public var capacity: Int

    /// Creates a snapshot; all counters default to zero.
    public init(
        hits: Int = 0, misses: Int = 0, evictions: Int = 0, fills: Int = 0,
        bytes: Int = 0, count: Int = 0, capacity: Int = 0
    ) {
        self.hits = hits
        self.misses = misses
        self.evictions = evictions
        self.fills = fills
        self.bytes = bytes
        self.count = count
        self.capacity = capacity
    }

    /// The fraction of lookups that were hits, or 0 before the first lookup.
    public var hitRatio: Double {
        let lookups = hits + misses
        return lookups == 0 ? 0 : Double(hits) / Double(lookups)
    }
}
