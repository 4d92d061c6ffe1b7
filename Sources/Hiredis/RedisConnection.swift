internal import CHiredis

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One blocking connection to Redis (a hiredis `redisContext`), with a connect timeout and a
/// read/write timeout. Not thread-safe: one caller at a time (the pool hands it out). After any
/// I/O error hiredis's context is unusable, so the connection reports `isBroken` and the pool
/// drops it. `@unchecked Sendable`: all its state is touched only by the one caller the pool
/// (`RedisConnectionPool`, under its lock) has handed it to.
public final class RedisConnection: @unchecked Sendable {
    private let context: UnsafeMutablePointer<redisContext>
    /// Set after an I/O or protocol error: the connection must be closed, not reused.
    public private(set) var isBroken = false

    /// Connects to `endpoint` within `timeoutMilliseconds`, then `AUTH`s and `SELECT`s as the
    /// endpoint says; commands then wait at most `timeoutMilliseconds` each.
    public init(endpoint: RedisEndpoint, timeoutMilliseconds: Int) throws(RedisError) {
        let timeout = Self.makeTimeval(milliseconds: timeoutMilliseconds)
        guard let context = redisConnectWithTimeout(endpoint.host, Int32(endpoint.port), timeout) else {
            throw .connect("out of memory")
        }
        self.context = context
        // From here a throw runs `deinit`, which frees the context.
        if context.pointee.err != 0 { throw Self.error(of: context, connecting: true) }
        guard redisSetTimeout(context, timeout) == REDIS_OK else { throw .connect("cannot set the socket timeout") }
        if let password = endpoint.password { _ = try command(["AUTH", password]) }
        if endpoint.database != 0 { _ = try command(["SELECT", "\(endpoint.database)"]) }
    }

    deinit { redisFree(context) }

    /// Sends one command (arguments as text) and waits for its reply.
    public func command(_ arguments: [String]) throws(RedisError) -> RedisReply {
        try command(arguments.map { Array($0.utf8) })
    }

    /// Sends one command, each argument binary-safe (hiredis's `redisCommandArgv`: lengths are
    /// passed, as `%b` does for `redisCommand`), and waits for its reply.
    public func command(_ arguments: [[UInt8]]) throws(RedisError) -> RedisReply {
        try pipeline([arguments])[0]
    }

    /// Sends `commands` in one write and reads their replies, in order: one round trip for all.
    /// Every reply is read before an error reply throws `.server`, so the connection stays usable.
    public func pipeline(_ commands: [[[UInt8]]]) throws(RedisError) -> [RedisReply] {
        guard !isBroken else { throw .io("the connection was closed after an earlier error") }
        for arguments in commands {
            let status = withArgv(arguments) { argv, lengths in
                redisAppendCommandArgv(context, Int32(arguments.count), argv, lengths)
            }
            guard status == REDIS_OK else {
                isBroken = true
                throw Self.error(of: context, connecting: false)
            }
        }
        var replies: [RedisReply] = []
        var serverError: String?
        for _ in commands {
            var raw: UnsafeMutableRawPointer?
            guard redisGetReply(context, &raw) == REDIS_OK, let raw else {
                isBroken = true
                throw Self.error(of: context, connecting: false)
            }
            let reply = raw.assumingMemoryBound(to: redisReply.self)
            if reply.pointee.type == REDIS_REPLY_ERROR {
                serverError = serverError ?? Self.text(reply.pointee.str, reply.pointee.len)
                replies.append(.null)
            } else {
                replies.append(Self.convert(reply))
            }
            freeReplyObject(raw)
        }
        if let serverError { throw .server(serverError) }
        return replies
    }

    private func withArgv<T>(
        _ arguments: [[UInt8]], _ body: (UnsafeMutablePointer<UnsafePointer<CChar>?>, UnsafePointer<Int>) -> T
    ) -> T {
        // One buffer holds every argument back to back; argv points into it.
        let total = arguments.reduce(0) { $0 + $1.count }
        var storage = [CChar](repeating: 0, count: max(total, 1))
        var lengths = arguments.map(\.count)
        return storage.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            for argument in arguments {
                argument.withUnsafeBytes { bytes in
                    UnsafeMutableRawBufferPointer(rebasing: UnsafeMutableRawBufferPointer(buffer)[offset ..< offset + argument.count])
                        .copyMemory(from: bytes)
                }
                offset += argument.count
            }
            var argv = [UnsafePointer<CChar>?]()
            argv.reserveCapacity(arguments.count)
            offset = 0
            for argument in arguments {
                argv.append(UnsafePointer(buffer.baseAddress! + offset))
                offset += argument.count
            }
            return argv.withUnsafeMutableBufferPointer { argvBuffer in
                lengths.withUnsafeMutableBufferPointer { body(argvBuffer.baseAddress!, UnsafePointer($0.baseAddress!)) }
            }
        }
    }

    private static func convert(_ reply: UnsafeMutablePointer<redisReply>) -> RedisReply {
        let value = reply.pointee
        switch value.type {
        case REDIS_REPLY_STRING:
            guard let str = value.str else { return .bytes([]) }
            return .bytes(Array(UnsafeRawBufferPointer(start: str, count: Int(value.len))))
        case REDIS_REPLY_INTEGER: return .integer(Int(value.integer))
        case REDIS_REPLY_STATUS: return .status(text(value.str, value.len))
        case REDIS_REPLY_ARRAY:
            return .array((0 ..< Int(value.elements)).compactMap { index in value.element[index].map(convert) })
        default: return .null
        }
    }

    private static func text(_ pointer: UnsafeMutablePointer<CChar>?, _ length: Int) -> String {
        guard let pointer else { return "" }
        return String(decoding: UnsafeRawBufferPointer(start: pointer, count: length), as: UTF8.self)
    }

    /// The context's error as a `RedisError`: a timeout when the socket call timed out.
    private static func error(of context: UnsafeMutablePointer<redisContext>, connecting: Bool) -> RedisError {
        let message = withUnsafeBytes(of: context.pointee.errstr) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let code = context.pointee.err
        let timedOut = message.contains("temporarily unavailable") || message.contains("timed out")
            || message.contains("Timeout")
        if timedOut { return .timeout(message) }
        if connecting { return .connect(message) }
        switch code {
        case REDIS_ERR_PROTOCOL: return .protocolError(message)
        case REDIS_ERR_EOF: return .io("the server closed the connection")
        default: return .io(message.isEmpty ? "error \(code)" : message)
        }
    }

    private static func makeTimeval(milliseconds: Int) -> timeval {
        timeval(tv_sec: time_t(milliseconds / 1000), tv_usec: suseconds_t((milliseconds % 1000) * 1000))
    }
}
