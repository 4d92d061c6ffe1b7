/// When to try Redis again after failures: 100 ms after the first, doubling to `maximum`,
/// reset by a success. Times are monotonic nanoseconds.
struct RedisBackoff: Sendable {
    /// The first wait.
    static let initial: UInt64 = 100_000_000
    /// The longest wait.
    var maximum: UInt64 = 2_000_000_000
    /// Failures in a row.
    private(set) var failures = 0
    private var nextAttempt: UInt64 = 0

    /// Nanoseconds until the next attempt is due, nil when it is due now.
    func remaining(now: UInt64) -> UInt64? {
        guard failures > 0, now < nextAttempt else { return nil }
        return nextAttempt - now
    }

    /// A failure at `now`: the next attempt waits twice as long as the last (up to `maximum`).
    mutating func failed(now: UInt64) {
        let shift = UInt64(min(failures, 20))
        failures += 1
        nextAttempt = now + min(maximum, Self.initial << shift)
    }

    /// A success: no wait.
    mutating func succeeded() {
        failures = 0
        nextAttempt = 0
    }
}
