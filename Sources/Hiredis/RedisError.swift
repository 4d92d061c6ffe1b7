/// Why a Redis command got no usable answer. Every case leaves the server usable: the caller
/// treats the shared tier as a miss and carries on from its own tiers.
public enum RedisError: Error, Sendable, Equatable, CustomStringConvertible {
    /// No connection could be made (refused, unreachable, name not resolved).
    case connect(String)
    /// The server did not answer within the timeout (connect, read or write).
    case timeout(String)
    /// The connection broke (reset, closed by the server, another socket error).
    case io(String)
    /// The server answered something that is not RESP, or a reply of an unexpected type.
    case protocolError(String)
    /// The server answered with an error reply (`-ERR …`, `-NOAUTH …`, `-LOADING …`).
    case server(String)
    /// Calls are held back after failures: the next connection attempt is due in `retryInMilliseconds`.
    case backingOff(retryInMilliseconds: Int)

    /// A bounded label for metrics: `connect`, `timeout`, `io`, `protocol`, `server`, `backoff`.
    public var kind: String {
        switch self {
        case .connect: return "connect"
        case .timeout: return "timeout"
        case .io: return "io"
        case .protocolError: return "protocol"
        case .server: return "server"
        case .backingOff: return "backoff"
        }
    }

    public var description: String {
        switch self {
        case .connect(let reason): return "cannot connect to Redis: \(reason)"
        case .timeout(let reason): return "Redis did not answer in time: \(reason)"
        case .io(let reason): return "Redis connection failed: \(reason)"
        case .protocolError(let reason): return "unexpected answer from Redis: \(reason)"
        case .server(let reason): return "Redis refused the command: \(reason)"
        case .backingOff(let milliseconds): return "Redis is unreachable; next attempt in \(milliseconds) ms"
        }
    }
}
