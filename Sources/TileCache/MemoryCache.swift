// TileCache: a generic in-memory cache bounded by bytes, with coalesced fills;
// it knows nothing of HTTP or tiles. Invariant: each shard's bytes <= its capacity.
import Synchronization

/// A thread-safe least-recently-used cache bounded by the summed cost (bytes) of
/// its values, which coalesces concurrent misses of one key into one fill.
///
/// Keys are spread by hash over a power-of-two number of shards, each with its
/// own lock and an equal share of the capacity, so eviction is LRU within a
/// shard. A capacity of 0 turns storing off; lookups then always miss, while
/// concurrent misses are still coalesced.
///
/// Clearing a key (`removeValue(for:)`, `removeAll()`, `removeAll(where:)`, or
/// an `insert`) retires a fill of that key in progress: its result still reaches
/// its waiters but is not stored, and later lookups start a new fill.
public final class MemoryCache<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The shard count used when none is given: enough that two threads rarely
    /// wait for the same lock.
    public static var defaultShardCount: Int { 16 }

    /// The capacity in bytes; 0 means the cache stores nothing.
    public let capacity: Int
    @usableFromInline let shards: [CacheShard<Key, Value>]
    /// 64 − log2(shard count): shifts a mixed hash down to its top bits.
    @usableFromInline let shardShift: UInt64
    /// Spreads keys over the shards (the lookup inside a shard hashes the key again, fully).
    @usableFromInline let shardHash: @Sendable (Key) -> Int

    /// Creates an empty cache.
    /// - Parameters:
    ///   - capacity: the most bytes (summed costs) the cache holds; 0 disables storing.
    ///   - shardCount: the number of independently locked parts, rounded up to a
    ///     power of two. Each holds `capacity / shardCount` bytes, and an entry
    ///     costlier than that is never stored. Use 1 for exact global LRU order.
    ///   - shardHash: what picks a key's shard; by default its `hashValue`. A cheaper function
    ///     of the key (its coordinates, say) saves a second full hash per lookup. Any function
    ///     that gives equal keys equal values is correct; one that spreads keys evenly keeps the
    ///     shards' locks apart.
    public init(
        capacity: Int, shardCount: Int = MemoryCache.defaultShardCount,
        shardHash: @escaping @Sendable (Key) -> Int = { $0.hashValue }
    ) {
        precondition(capacity >= 0, "MemoryCache capacity must not be negative")
        precondition(shardCount >= 1, "MemoryCache needs at least one shard")
        var count = 1
        while count < shardCount { count <<= 1 }
        self.capacity = capacity
        self.shards = (0..<count).map { index in
            CacheShard(capacity: capacity / count + (index < capacity % count ? 1 : 0))
        }
        self.shardShift = UInt64(64 - count.trailingZeroBitCount)
        self.shardHash = shardHash
    }

    /// The stored value for `key`, which becomes the most recently used; `nil` on
    /// a miss. Never waits for a fill and never allocates.
    @inlinable
    public func value(for key: Key) -> Value? {
        shard(for: key).value(for: key)
    }

    /// Stores `value` for `key` at `cost` bytes as the most recently used entry,
    /// evicting least recently used entries to make room. A fill of `key` in
    /// progress is retired. Nothing is stored if `cost` exceeds the shard capacity.
    public func insert(_ value: Value, for key: Key, cost: Int) {
        precondition(cost >= 0, "MemoryCache cost must not be negative")
        shard(for: key).insert(value, for: key, cost: cost)
    }

    /// `value(for:)`, counting the request for `key` in its shard's frequency sketch (with the
    /// lookup, under the same lock), for `admits`. A caller counts each request once.
    @inlinable
    public func value(for key: Key, countingRequest: Bool) -> Value? {
        guard countingRequest else { return value(for: key) }
        let hash = mixedHash(key)
        return shard(forHash: hash).value(for: key, counting: hash)
    }

    /// Whether a value of `cost` bytes for `key` should be stored, for a caller that can serve
    /// it without storing it (a tile file): when it fits without evicting anything; else only
    /// when requests counted by `value(for:countingRequest:)` asked for `key` more than twice
    /// as often lately (and more than twice) as for each least recently used entry it would push
    /// out (TinyLFU's admission, with a margin). So a hot key displaces cold ones, while
    /// keys asked for alike (a working set larger than the cache) do not churn it.
    public func admits(_ key: Key, cost: Int) -> Bool {
        let hash = mixedHash(key)
        return shard(forHash: hash).admits(cost: cost, hash: hash) { mixedHash($0) }
    }

    /// Removes the value for `key` and retires a fill of `key` in progress.
    public func removeValue(for key: Key) {
        shard(for: key).removeValue(for: key)
    }

    /// Removes every value and retires every fill in progress.
    public func removeAll() {
        for shard in shards { shard.removeAll() }
    }

    /// Removes the values, and retires the fills in progress, whose keys satisfy
    /// `shouldRemove` (a zoom range, a bounding box, a layer…).
    ///
    /// `shouldRemove` runs under a shard lock, once per stored or filling key: it
    /// must be quick and must not use this cache.
    public func removeAll(where shouldRemove: (Key) -> Bool) {
        for shard in shards { shard.removeAll(where: shouldRemove) }
    }

    /// A snapshot of the counters, summed over the shards.
    public var statistics: CacheStatistics {
        var total = CacheStatistics(capacity: capacity)
        for shard in shards {
            let part = shard.statistics
            total.hits += part.hits
            total.misses += part.misses
            total.evictions += part.evictions
            total.fills += part.fills
            total.bytes += part.bytes
            total.count += part.count
        }
        return total
    }

    @inlinable
    func shard(for key: Key) -> CacheShard<Key, Value> {
        shard(forHash: mixedHash(key))
    }

    /// The shard of a key whose `mixedHash` is `hash`: its top log2(count) bits.
    @inlinable
    func shard(forHash hash: UInt64) -> CacheShard<Key, Value> {
        shards[Int(truncatingIfNeeded: hash >> shardShift)]
    }

    /// Fibonacci hashing: multiplied by 2^64/φ, the top bits depend on every input bit (a weak
    /// `shardHash` spreads too); the shard is the top log2(count) bits.
    @inlinable
    func mixedHash(_ key: Key) -> UInt64 {
        UInt64(truncatingIfNeeded: shardHash(key)) &* 0x9E37_79B9_7F4A_7C15
    }
}
