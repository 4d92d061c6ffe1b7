#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A failed socket call: which call, and the `errno` it left.
public enum SocketError: Error, Equatable, CustomStringConvertible {
    /// A system call failed with `errno`.
    case systemCall(name: String, errno: Int32)
    /// A host that is not a numeric IPv4 or IPv6 address and could not be resolved.
    case invalidAddress(host: String)
    /// A feature this platform does not have.
    case unsupported(String)

    public var description: String {
        switch self {
        case .systemCall(let name, let code):
            return "\(name) failed: \(String(cString: strerror(code))) (errno \(code))"
        case .invalidAddress(let host):
            return "cannot resolve address \"\(host)\""
        case .unsupported(let what):
            return what
        }
    }
}
