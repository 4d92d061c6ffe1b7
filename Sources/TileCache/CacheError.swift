/// The errors the TileCache module raises itself; a fill's own errors pass
/// through unchanged.
public enum CacheError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The `CacheFillToken` of a fill was released without `complete(_:with:)`,
    /// so its waiters were released with this error instead of hanging.
    case fillAbandoned
    /// A disk-tier file or folder could not be read, written, renamed or removed.
    case diskIO(path: String, operation: String, errno: Int32)
    /// A disk-tier file failed its header or checksum test (it has been deleted).
    case corrupt(path: String, reason: String)
    /// A cache shared by several servers (the Redis tier) could not be reached to clear it.
    case sharedTierUnreachable(reason: String)

    /// A message for the log.
    public var description: String {
        switch self {
        case .fillAbandoned:
            "a cache fill was abandoned without a result: the code that received `mustFill` must call `complete(_:with:)`"
        case .diskIO(let path, let operation, let code):
            "cannot \(operation) \(path): \(String(cString: strerror(code))) (check the folder's owner, mode and free space)"
        case .corrupt(let path, let reason):
            "corrupt cache file \(path) (\(reason)); deleted, the tile is fetched again"
        case .sharedTierUnreachable(let reason):
            "the shared cache could not be cleared: \(reason) (the other replicas may still serve the old tiles from it; clear again once it answers)"
        }
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
