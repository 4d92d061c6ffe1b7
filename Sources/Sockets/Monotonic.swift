#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Monotonic time.
public enum Monotonic {
    /// Nanoseconds since an arbitrary start, never going back.
    public static var nanoseconds: UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }

    /// `seconds` (a configured duration) in nanoseconds; a negative one is 0.
    public static func nanoseconds(_ seconds: Double) -> UInt64 {
        UInt64(max(0, seconds) * 1e9)
    }
}
