/// The errors the TileCache module raises itself; a fill's own errors pass
/// through unchanged.
public enum CacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `CacheFillToken` of a fill was released without `complete(_:with:)`,
    /// so its waiters were released with this error instead of hanging.
    case fillAbandoned

    /// A message for the log.
    public var description: String {
        switch self {
        case .fillAbandoned:
            "a cache fill was abandoned without a result: the code that received `mustFill` must call `complete(_:with:)`"
        }
    }
}
