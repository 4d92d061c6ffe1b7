/// What a fill produced, and whether the cache may keep it.
///
/// Either way the value reaches the caller that filled and every waiter; only
/// `store` puts it in the cache. "Not available now" answers, which must be
/// asked again later, are `doNotStore`.
public enum CacheFillResult<Value: Sendable>: Sendable {
    /// Keep `value` in the cache, counting `cost` bytes against its capacity.
    case store(Value, cost: Int)
    /// Hand `value` to the waiters but do not keep it.
    case doNotStore(Value)

    /// The value, whether stored or not.
    public var value: Value {
        switch self {
        case .store(let value, _), .doNotStore(let value): value
        }
    }
}
