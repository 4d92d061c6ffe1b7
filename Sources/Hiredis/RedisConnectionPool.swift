import Dispatch
import Synchronization

/// Up to `maxIdle` open connections to one Redis, handed out one caller at a time, made on
/// demand. After a failure to connect or a broken connection, calls fail at once with
/// `.backingOff` until the next attempt is due (`RedisBackoff`: 100 ms doubling to
/// `maxBackoffMilliseconds`), so a Redis that is down costs a request nothing but a check, and
/// the pool reconnects by itself when Redis is back. Calls block for up to the timeout: make
/// them on a Dispatch worker, never an event loop or the Swift-concurrency pool.
public final class RedisConnectionPool: Sendable {
    /// Where Redis is.
    public let endpoint: RedisEndpoint
    /// Connect and per-command timeout.
    public let timeoutMilliseconds: Int
    /// Connections kept open between calls.
    public let maxIdle: Int

    private struct State {
        var idle: [RedisConnection] = []
        var backoff = RedisBackoff()
    }
    /// Connections are handed to one caller at a time under the lock; none is used while held.
    private let state: Mutex<State>

    /// A pool for `endpoint`.
    public init(endpoint: RedisEndpoint, timeoutMilliseconds: Int, maxIdle: Int = 8, maxBackoffMilliseconds: Int = 2000) {
        self.endpoint = endpoint
        self.timeoutMilliseconds = timeoutMilliseconds
        self.maxIdle = maxIdle
        var initial = State()
        initial.backoff.maximum = UInt64(maxBackoffMilliseconds) * 1_000_000
        state = Mutex(initial)
    }

    /// Runs `body` with a connection: an idle one, else a new one. A connection that broke is
    /// closed and starts the back-off; one that worked goes back to the idle list.
    public func withConnection<T>(_ body: (RedisConnection) throws(RedisError) -> T) throws(RedisError) -> T {
        let now = DispatchTime.now().uptimeNanoseconds
        let taken: RedisConnection? = try state.withLock { (state) throws(RedisError) -> RedisConnection? in
            if let connection = state.idle.popLast() { return connection }
            if let wait = state.backoff.remaining(now: now) {
                throw .backingOff(retryInMilliseconds: Int(wait / 1_000_000))
            }
            return nil
        }
        let connection: RedisConnection
        if let taken {
            connection = taken
        } else {
            do {
                connection = try RedisConnection(endpoint: endpoint, timeoutMilliseconds: timeoutMilliseconds)
            } catch {
                state.withLock { $0.backoff.failed(now: DispatchTime.now().uptimeNanoseconds) }
                throw error
            }
        }
        do {
            let result = try body(connection)
            release(connection, broken: connection.isBroken)
            return result
        } catch {
            release(connection, broken: connection.isBroken)
            throw error
        }
    }

    /// Sends one command on a pooled connection.
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try withConnection { (connection) throws(RedisError) in try connection.command(arguments) }
    }

    /// Sends `commands` pipelined (one round trip) on a pooled connection.
    public func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        try withConnection { (connection) throws(RedisError) in try connection.pipeline(commands) }
    }

    /// Sends one command (text arguments) on a pooled connection.
    public func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Closes the idle connections (the next call connects again).
    public func closeIdle() {
        let closing = state.withLock { state in defer { state.idle.removeAll() }; return state.idle }
        _ = closing  // released here, outside the lock
    }

    private func release(_ connection: RedisConnection, broken: Bool) {
        let now = DispatchTime.now().uptimeNanoseconds
        let dropped: [RedisConnection] = state.withLock { state in
            if broken {
                // The others were opened before the failure and are likely broken too.
                state.backoff.failed(now: now)
                defer { state.idle.removeAll() }
                return state.idle
            }
            state.backoff.succeeded()
            if state.idle.count < maxIdle { state.idle.append(connection) }
            return []
        }
        _ = dropped
    }
}
