// TileHTTP: an HTTP/1.1 server on POSIX sockets and epoll event loops. It knows nothing of
// tiles: it parses requests, hands them to an `HTTPResponder`, and writes the answers in order.

import Logging
import Sockets
import Synchronization

/// Accepts connections and drives them; built once, then started.
///
/// One event loop (thread) per core. The first loop also accepts and deals connections out
/// round robin; a connection then stays on its loop, which reads, parses, answers what it can
/// at once (cache hits) and writes, with no thread hand-off. Answers that take longer come
/// back to the loop as a task.
///
/// `@unchecked Sendable`: the listener and accept state are touched only on the first loop;
/// the connection table is guarded by a `Mutex`; everything else is immutable or atomic.
public final class HTTPServer: @unchecked Sendable {
    /// The configuration it was made with.
    public let configuration: HTTPServerConfiguration
    /// The application.
    public let responder: any HTTPResponder
    /// The server's logger.
    public let logger: Logger
    /// Request and connection metrics.
    public let metrics: HTTPServerMetrics

    private let connections = Mutex<[ObjectIdentifier: HTTPConnection]>([:])
    private let shuttingDown = Atomic<Bool>(false)
    /// The loops, made by `start()`; immutable after it.
    private var loops: [EventLoop] = []
    /// The Date line cache of each loop.
    private var dateCaches: [HTTPDateCache] = []
    private var acceptor: HTTPAcceptor?
    private var nextLoop = 0
    /// Flood warnings, rate-limited; touched only on the first loop.
    private var warnings = HTTPWarningLimiter()

    /// How often deadlines are checked, seconds.
    private static let sweepInterval = 0.25
    /// How long accepting pauses when the process is out of file descriptors, seconds.
    private static let descriptorBackoff = 0.1
    /// Canned answer for clients beyond the connection limit.
    private static let overloadedResponse = Array(
        ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: text/plain; charset=utf-8\r\n"
            + "Retry-After: 1\r\nContent-Length: 41\r\nConnection: close\r\n\r\n"
            + "too many connections, try again shortly\r\n").utf8)

    /// A server that will answer with `responder`, counting into `metrics` (by default
    /// through swift-metrics' global factory).
    public init(
        configuration: HTTPServerConfiguration, responder: any HTTPResponder, logger: Logger,
        metrics: HTTPServerMetrics = HTTPServerMetrics()
    ) {
        self.configuration = configuration
        self.responder = responder
        self.logger = logger
        self.metrics = metrics
    }

    deinit {
        // Only reached with no open connection (each holds its server); the loops hold nothing
        // of the server but the acceptor's weak reference. Without a shutdown the listening
        // socket is still open: close it, or the port stays bound with nobody accepting.
        for loop in loops { loop.stop() }
        if !shuttingDown.load(ordering: .relaxed) { acceptor?.listener.close() }
    }

    /// Whether a graceful shutdown has begun.
    public var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Open connections now.
    public var connectionCount: Int { connections.withLock { $0.count } }

    /// Binds and starts accepting; returns the bound port.
    @discardableResult
    public func start() throws(SocketError) -> Int {
        precondition(loops.isEmpty, "HTTPServer.start called twice")
        // A client that resets while its answer is being written must cost an EPIPE, not the
        // process: writev and sendfile raise SIGPIPE otherwise.
        _ = signal(SIGPIPE, SIG_IGN)
        let socket = try Socket.listen(host: configuration.host, port: configuration.port)
        let port: Int
        do {
            port = try socket.localPort()
            for index in 0 ..< max(1, configuration.eventLoops ?? System.coreCount) {
                loops.append(try EventLoop(name: "tilelayer-io-\(index)"))
                dateCaches.append(HTTPDateCache())
            }
        } catch {
            socket.close()
            for loop in loops { loop.stop() }
            loops = []
            throw error
        }
        let acceptor = HTTPAcceptor(listener: socket, server: self)
        self.acceptor = acceptor
        let first = loops[0]
        first.execute { [weak self] in
            do {
                try first.register(socket.descriptor, events: .readable, handler: acceptor)
            } catch {
                self?.logger.critical("cannot watch the listening socket", metadata: ["error": "\(error)"])
            }
            self?.scheduleSweep()
        }
        return port
    }

    /// Accepts what is pending (on the first loop).
    func acceptPending(from listener: Socket) {
        for _ in 0 ..< 256 {
            switch listener.accept() {
            case .accepted(let socket, let peer):
                admit(socket, peer: peer)
            case .wouldBlock:
                return
            case .outOfDescriptors:
                // Out of descriptors: stop accepting for a moment instead of spinning on EMFILE.
                let (log, suppressed) = warnings.admit("descriptors")
                if log {
                    logger.warning("out of file descriptors; pausing accept", metadata: [
                        "connections": "\(connectionCount)", "suppressedSinceLast": "\(suppressed)"])
                }
                let loop = loops[0]
                loop.modify(listener.descriptor, events: [])
                loop.schedule(after: Self.descriptorBackoff) { [weak self] in
                    guard let self, !isShuttingDown else { return }
                    loop.modify(listener.descriptor, events: .readable)
                }
                return
            case .failed(let code):
                logger.debug("accept failed", metadata: ["errno": "\(code)"])
            }
        }
    }

    private func admit(_ socket: Socket, peer: String) {
        let count = connectionCount
        if count >= configuration.maxConnections {
            Self.overloadedResponse.withUnsafeBufferPointer { bytes in
                var vector = iovecFor(bytes)
                _ = withUnsafePointer(to: &vector) { socket.write(UnsafeBufferPointer(start: $0, count: 1)) }
            }
            socket.close()
            metrics.connectionRejected()
            let (log, suppressed) = warnings.admit("limit")
            if log {
                logger.warning("connection limit reached; answered 503", metadata: [
                    "limit": "\(configuration.maxConnections)", "suppressedSinceLast": "\(suppressed)"])
            }
            return
        }
        nextLoop = (nextLoop + 1) % loops.count
        let loop = loops[nextLoop]
        let connection = HTTPConnection(socket: socket, peer: peer, server: self, loop: loop,
                                        dateCache: dateCaches[nextLoop])
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
        metrics.connectionOpened()
        if loop.inLoop { connection.start() } else { loop.execute { connection.start() } }
    }

    /// Checks deadlines every `sweepInterval` (on the first loop) while the server lives.
    private func scheduleSweep() {
        loops[0].schedule(after: Self.sweepInterval) { [weak self] in
            guard let self else { return }
            sweepDeadlines()
            scheduleSweep()
        }
    }

    private func sweepDeadlines() {
        let now = Monotonic.nanoseconds
        let due = connections.withLock { table in
            table.values.filter { connection in
                let deadline = connection.deadline.load(ordering: .relaxed)
                return deadline != 0 && deadline <= now
            }
        }
        for connection in due {
            connection.loop.execute { connection.deadlineExpired() }
        }
    }

    func connectionClosed(_ connection: HTTPConnection) {
        let removed = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
        if removed != nil { metrics.connectionClosed() }
    }

    /// Stops accepting, lets requests in flight finish, closes idle connections, and calls
    /// `completion` when every connection is closed or `gracePeriod` seconds have passed; then
    /// the event loops stop.
    public func shutdown(gracePeriod: Double = 10, completion: @escaping @Sendable () -> Void) {
        guard !shuttingDown.exchange(true, ordering: .relaxed) else { return }
        guard let first = loops.first, let acceptor else {
            completion()
            return
        }
        first.execute { [self] in
            first.deregister(acceptor.listener.descriptor)
            acceptor.listener.close()
            for connection in connections.withLock({ Array($0.values) }) {
                connection.loop.execute { connection.shutdownGracefully() }
            }
            let deadline = Monotonic.nanoseconds + UInt64(max(0, gracePeriod) * 1e9)
            waitForConnections(until: deadline, completion: completion)
        }
    }

    private func waitForConnections(until deadline: UInt64, completion: @escaping @Sendable () -> Void) {
        let remaining = connections.withLock { Array($0.values) }
        if remaining.isEmpty {
            for loop in loops { loop.stop() }
            completion()
            return
        }
        if Monotonic.nanoseconds >= deadline {
            logger.warning("shutdown grace period over; closing connections", metadata: ["open": "\(remaining.count)"])
            for connection in remaining { connection.loop.execute { connection.close() } }
        }
        loops[0].schedule(after: 0.02) { [self] in
            waitForConnections(until: deadline, completion: completion)
        }
    }
}

/// The listening socket's handler on the first loop.
final class HTTPAcceptor: EventLoopHandler, @unchecked Sendable {
    let listener: Socket
    private weak var server: HTTPServer?

    init(listener: Socket, server: HTTPServer) {
        self.listener = listener
        self.server = server
    }

    func handleEvents(_ events: EventLoop.Events) {
        server?.acceptPending(from: listener)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

private func iovecFor(_ bytes: UnsafeBufferPointer<UInt8>) -> iovec {
    iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
}
