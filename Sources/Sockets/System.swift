#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Facts about the machine.
public enum System {
    /// Online processor cores.
    public static let coreCount = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
}

extension System {
    /// What `raiseDescriptorLimit` did.
    public enum DescriptorLimit: Equatable, Sendable {
        /// The soft limit already fits.
        case sufficient(soft: UInt64)
        /// The soft limit was raised from `from` to `to`.
        case raised(from: UInt64, to: UInt64)
        /// The hard limit is below what is needed: the soft limit was raised to the hard one.
        case capped(needed: UInt64, hard: UInt64)
        /// getrlimit/setrlimit failed with errno.
        case failed(errno: Int32)
    }

    #if os(Linux)
    private static let descriptorResource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    #else
    private static let descriptorResource = RLIMIT_NOFILE
    #endif

    /// The soft `RLIMIT_NOFILE` now; nil when it cannot be read.
    public static func descriptorLimit() -> UInt64? {
        var limit = rlimit()
        return getrlimit(descriptorResource, &limit) == 0 ? UInt64(limit.rlim_cur) : nil
    }

    /// Raises the soft `RLIMIT_NOFILE` to at least `needed` descriptors (up to the hard limit).
    public static func raiseDescriptorLimit(to needed: UInt64) -> DescriptorLimit {
        var limit = rlimit()
        let resource = descriptorResource
        guard getrlimit(resource, &limit) == 0 else { return .failed(errno: errno) }
        let soft = UInt64(limit.rlim_cur)
        let hard = UInt64(limit.rlim_max)
        if soft >= needed { return .sufficient(soft: soft) }
        let target = min(needed, hard)
        limit.rlim_cur = rlim_t(target)
        guard setrlimit(resource, &limit) == 0 else { return .failed(errno: errno) }
        return target < needed ? .capped(needed: needed, hard: hard) : .raised(from: soft, to: target)
    }
}
