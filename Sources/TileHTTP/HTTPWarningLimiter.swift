import Sockets

/// Lets a warning that a flood repeats (out of descriptors, connection limit) through at most
/// once per interval and counts the ones held back, so an attack cannot flood the log.
/// Not thread-safe: the server uses it only on its first event loop.
struct HTTPWarningLimiter {
    /// Seconds between two lines of the same warning.
    static let interval = 1.0

    private var lastLogged: [String: UInt64] = [:]
    private var held: [String: Int] = [:]

    /// Whether `key` may be logged now; if so, also how many were held back since the last line.
    mutating func admit(_ key: String, now: UInt64 = Monotonic.nanoseconds) -> (log: Bool, suppressed: Int) {
        if let last = lastLogged[key], now - last < UInt64(Self.interval * 1e9) {
            held[key, default: 0] += 1
            return (false, 0)
        }
        lastLogged[key] = now
        return (true, held.removeValue(forKey: key) ?? 0)
    }
}
