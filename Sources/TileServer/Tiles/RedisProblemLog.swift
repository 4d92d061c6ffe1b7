import Dispatch
import Hiredis
import Logging
import Synchronization

/// Logs the shared tier's failures at most once a minute (with how many were held back), and
/// once when Redis answers again: a Redis that is down must not flood the log.
final class RedisProblemLog: Sendable {
    /// Seconds between two failure lines.
    static let interval: UInt64 = 60

    private struct State {
        var lastLogged: UInt64?
        var held = 0
        var failing = false
    }
    private let state = Mutex(State())

    /// A failed command.
    func failed(_ error: RedisError, command: String, layer: String, logger: Logger, endpoint: RedisEndpoint) {
        let now = DispatchTime.now().uptimeNanoseconds
        let held: Int? = state.withLock { state in
            state.failing = true
            if let last = state.lastLogged, now - last < Self.interval * 1_000_000_000 {
                state.held += 1
                return nil
            }
            state.lastLogged = now
            defer { state.held = 0 }
            return state.held
        }
        guard let held else { return }
        logger.error("redis cache unavailable; serving from this replica's own tiers (logged at most once a minute)",
                     metadata: ["redis": "\(endpoint)", "command": "\(command)", "layer": "\(layer)", "error": "\(error)",
                                "suppressed": "\(held)"])
    }

    /// A command that worked: logs once after failures.
    func succeeded(logger: Logger, endpoint: RedisEndpoint) {
        let recovered = state.withLock { state in
            defer { state.failing = false }
            return state.failing
        }
        if recovered { logger.notice("redis cache reachable again", metadata: ["redis": "\(endpoint)"]) }
    }
}
