import Synchronization

/// The duty to fill one key, handed to exactly one caller by `lookupOrJoin(_:)`.
///
/// Pass it back to `MemoryCache.complete(_:with:)` with the result. A token
/// released without completion finishes its fill with `CacheError.fillAbandoned`,
/// so waiters never hang on a forgotten fill; a second completion is ignored.
public final class CacheFillToken<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The key being filled.
    public let key: Key
    /// The fill that waiters joined.
    public let fill: PendingCacheFill<Value>
    /// The stored value the caller's freshness test refused (`lookupOrJoin(_:isFresh:)`): it
    /// stays stored until the fill replaces it, so the filler may still serve it if the fill fails.
    public let expired: Value?
    private let shard: CacheShard<Key, Value>
    private let isCompleted = Atomic(false)

    init(key: Key, fill: PendingCacheFill<Value>, shard: CacheShard<Key, Value>, expired: Value? = nil) {
        self.key = key
        self.fill = fill
        self.expired = expired
        self.shard = shard
    }

    /// Stores the result if the fill is still current (not retired by a clear)
    /// and storable, then hands the value or error to the waiters.
    /// - Returns: `false` if the token had already been completed.
    @discardableResult
    public func complete(with result: Result<CacheFillResult<Value>, any Error>) -> Bool {
        guard !isCompleted.exchange(true, ordering: .acquiringAndReleasing) else { return false }
        shard.finishFill(fill, for: key, with: result)
        // A closure, not `\.value`: in generic code a key path is built at run time, per call.
        fill.finish(with: result.map { $0.value })
        return true
    }

    deinit {
        complete(with: .failure(CacheError.fillAbandoned))
    }
}
