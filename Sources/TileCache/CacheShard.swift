import Synchronization

/// One lock's worth of a `MemoryCache`: an LRU list, the fills in progress for
/// its keys, and its counters, all behind a single `Mutex`.
///
/// Critical sections only touch this state: no I/O, no fill, no waiter handler
/// runs while the lock is held. The hit path is `@inlinable` so clients specialize
/// it for their concrete types (unspecialized, a hit costs several times more).
@usableFromInline
final class CacheShard<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// Everything the lock protects.
    @usableFromInline
    struct State: ~Copyable {
        @usableFromInline var list = LRUList<Key, Value>()
        /// The current fill of each key being filled. A fill is current while it
        /// is here: clearing its key retires it (removes it), and a completed fill
        /// is stored only if it is still current — the fill is its key's generation.
        @usableFromInline var fills: [Key: PendingCacheFill<Value>] = [:]
        @usableFromInline var hits = 0
        @usableFromInline var misses = 0
        var evictions = 0
        var fillsStarted = 0
        /// How often keys were asked for lately (counted by `value(for:counting:)`), for `admits`.
        @usableFromInline let sketch: FrequencySketch

        init(sketchWidth: Int) {
            sketch = FrequencySketch(width: sketchWidth)
        }
    }

    /// This shard's share of the cache's capacity, in bytes.
    let capacity: Int
    @usableFromInline let state: Mutex<State>

    /// Bytes per entry the frequency sketch is sized for: a small tile's.
    static var sketchedEntryBytes: Int { 4096 }

    init(capacity: Int) {
        self.capacity = capacity
        state = Mutex(State(sketchWidth: capacity / Self.sketchedEntryBytes))
    }

    @inlinable
    func value(for key: Key) -> Value? {
        state.withLock { state in
            let value = state.list.value(for: key)
            if value == nil { state.misses += 1 } else { state.hits += 1 }
            return value
        }
    }

    /// `value(for:)`, counting the request in the frequency sketch (`hash`: the key's mixed hash).
    @inlinable
    func value(for key: Key, counting hash: UInt64) -> Value? {
        state.withLock { state in
            state.sketch.record(hash)
            let value = state.list.value(for: key)
            if value == nil { state.misses += 1 } else { state.hits += 1 }
            return value
        }
    }

    /// Whether a value of `cost` bytes for the key of `hash` should be stored: it fits without
    /// evicting anything, or its key was asked for far more often lately than every entry it
    /// would push out (`FrequencySketch.outranks`), least recently used first.
    func admits(cost: Int, hash: UInt64, hashOf: (Key) -> UInt64) -> Bool {
        state.withLock { state in
            let needed = state.list.bytes + cost - capacity
            if needed <= 0 { return true }
            guard cost <= capacity else { return false }
            let candidate = state.sketch.estimate(hash)
            let sketch = state.sketch
            return state.list.leastRecentlyUsed(freeing: needed) { victim in
                sketch.outranks(candidate, sketch.estimate(hashOf(victim)))
            }
        }
    }

    /// The value for `key`, the fill to join, or nil (the caller starts one); `counting`: the
    /// key's mixed hash, recorded in the frequency sketch first. A value `isFresh` refuses is a miss.
    @inlinable
    func lookupOrJoin(
        _ key: Key, counting hash: UInt64?, isFresh: (Value) -> Bool = { _ in true }
    ) -> CacheLookup<Key, Value> {
        let answer: CacheLookup<Key, Value>? = state.withLock { state in
            if let hash { state.sketch.record(hash) }
            if let value = state.list.value(for: key), isFresh(value) {
                state.hits += 1
                return .hit(value)
            }
            state.misses += 1
            if let fill = state.fills[key] { return .joined(fill) }
            return nil
        }
        return answer ?? startFill(for: key, isFresh: isFresh)
    }

    /// The slow path of a miss nobody is filling yet.
    @usableFromInline
    func startFill(for key: Key, isFresh: (Value) -> Bool = { _ in true }) -> CacheLookup<Key, Value> {
        // The fill was allocated outside the lock, so re-check: another caller
        // may have registered a fill or stored a value meanwhile.
        let fill = PendingCacheFill<Value>()
        var expired: Value?
        let winner: CacheLookup<Key, Value>? = state.withLock { state in
            if let value = state.list.value(for: key) {
                if isFresh(value) { return .hit(value) }
                expired = value
            }
            if let other = state.fills[key] { return .joined(other) }
            state.fills[key] = fill
            state.fillsStarted += 1
            return nil
        }
        return winner ?? .mustFill(CacheFillToken(key: key, fill: fill, shard: self, expired: expired))
    }

    func insert(_ value: Value, for key: Key, cost: Int) {
        state.withLock { state in
            state.fills[key] = nil  // a fill that started earlier must not overwrite this
            store(value, for: key, cost: cost, in: &state)
        }
    }

    func finishFill(
        _ fill: PendingCacheFill<Value>, for key: Key,
        with result: Result<CacheFillResult<Value>, any Error>
    ) {
        state.withLock { state in
            guard let current = state.fills[key], current === fill else { return }  // retired
            state.fills[key] = nil
            if case .success(.store(let value, let cost)) = result {
                store(value, for: key, cost: cost, in: &state)
            }
        }
    }

    func removeValue(for key: Key) {
        state.withLock { state in
            state.list.removeValue(for: key)
            state.fills[key] = nil
        }
    }

    func removeAll(where shouldRemove: (Key) -> Bool) {
        state.withLock { state in
            _ = state.list.removeAll(where: shouldRemove)
            state.fills = state.fills.filter { !shouldRemove($0.key) }
        }
    }

    func removeAll() {
        state.withLock { state in
            state.list.removeAll()
            state.fills = [:]
        }
    }

    var statistics: CacheStatistics {
        state.withLock { state in
            CacheStatistics(
                hits: state.hits, misses: state.misses, evictions: state.evictions,
                fills: state.fillsStarted, bytes: state.list.bytes, count: state.list.count,
                capacity: capacity
            )
        }
    }

    /// Stores unless the entry could never fit; an entry larger than the shard
    /// would empty it and still not fit.
    private func store(_ value: Value, for key: Key, cost: Int, in state: inout State) {
        guard cost <= capacity, capacity > 0 else {
            state.list.removeValue(for: key)  // never leave an older value behind
            return
        }
        state.evictions += state.list.insert(value, for: key, cost: cost, capacity: capacity)
    }
}
