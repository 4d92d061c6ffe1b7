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
