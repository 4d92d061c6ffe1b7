/// The answer of `MemoryCache.lookupOrJoin(_:)`: a value now, a fill to wait
/// for, or the duty to fill.
public enum CacheLookup<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    /// The stored value; it is now the most recently used entry.
    case hit(Value)
    /// Another caller is filling this key; its result arrives through the fill's
    /// `onCompletion(_:)` or `value`.
    case joined(PendingCacheFill<Value>)
    /// Nothing stored and nobody filling: the caller must produce the value and
    /// pass it to `MemoryCache.complete(_:with:)`; other callers join meanwhile.
    case mustFill(CacheFillToken<Key, Value>)
}
