// TileHTTP: an HTTP/1.1 server on POSIX sockets and event loops (epoll or Dispatch). It knows
// nothing of tiles: it parses requests, hands them to an `HTTPResponder`, and writes the answers
// in order.

import Dispatch
import Logging
import Sockets
import Synchronization

/// Accepts connections and drives them; built once, then started.
///
/// One event loop (an epoll thread or a serial Dispatch queue) per core. The first loop also accepts and deals connections out
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
    /// Who asked for the shutdown and waits for its end; nil once it ended.
    private let shutdownWaiters = Mutex<[@Sendable () -> Void]?>([])
    /// The loops, made by `start()`; immutable after it.
    private var loops: [any IOEventLoop] = []
    /// What each loop keeps for its connections (Date line, access log).
    private var contexts: [HTTPLoopContext] = []
    private var acceptor: HTTPAcceptor?
    private var nextLoop = 0
    /// Flood warnings, rate-limited; touched only on the first loop.
    private var warnings = HTTPWarningLimiter()

    /// How often deadlines are checked, seconds.
    private static let sweepInterval = 0.25
    /// How long accepting pauses when the process is out of file descriptors, seconds.
    private static let descriptorBackoff = 0.1
    /// Rejected connections still lingering (sending their 503); they do not count toward
    /// `maxConnections`, and beyond `maxLingeringRejections` a rejection closes at once.
    private let lingeringRejections = Atomic<Int>(0)
    private static let maxLingeringRejections = 1024
    /// Descriptors kept beyond `maxConnections` (listener, loops, files, upstream sockets).
    private static let descriptorHeadroom: UInt64 = 1024
    /// Answer for clients beyond the connection limit.
    private static let overloadedResponse = HTTPResponse.text(
        .serviceUnavailable, "too many connections, try again shortly",
        headers: [.retryAfter: "1", .cacheControl: "no-store"])
    /// Answer for clients beyond the descriptor budget (`DescriptorBudget`).
    private static let outOfDescriptorsResponse = HTTPResponse.text(
        .serviceUnavailable, "the server is out of file descriptors, try again shortly",
        headers: [.retryAfter: "1", .cacheControl: "no-store"])
    /// The process's descriptors, kept from running out (`DescriptorBudget`).
    private let descriptors = DescriptorBudget.process

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
        // A file over RLIMIT_FSIZE (the memory cache's sparse body file, say) fails with EFBIG
        // instead of killing the process.
        _ = signal(SIGXFSZ, SIG_IGN)
        raiseDescriptorLimit()
        defer { descriptors.configure() }
        let socket = try Socket.listen(host: configuration.host, port: configuration.port)
        let port: Int
        do {
            port = try socket.localPort()
            let loopCount = max(1, System.coreCount)
            for index in 0 ..< loopCount {
                let loop = try configuration.transport.makeLoop(name: "tilelayer-io-\(index)")
                loops.append(loop)
                let log = configuration.accessLog ? HTTPAccessLog(settings: configuration.accessLogSettings, loop: loop) : nil
                contexts.append(HTTPLoopContext(accessLog: log, metrics: metrics.makeLoopMetrics()))
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

    /// Accepts what is pending (on the first loop), within the descriptor budget: while less
    /// than half the reserve is free, nothing (clients wait in the listen backlog).
    func acceptPending(from listener: Socket) {
        descriptors.censusIfNear(now: Monotonic.nanoseconds)
        for _ in 0 ..< 256 {
            guard descriptors.hasRoom(for: .rejection) else {
                return pauseAccepting(listener, reason: "the descriptor reserve is reached")
            }
            switch listener.accept() {
            case .accepted(let socket, let peer):
                descriptors.opened()
                admit(socket, peer: peer)
            case .wouldBlock:
                return
            case .outOfDescriptors:
                descriptors.exhaustedOnce()
                return pauseAccepting(listener, reason: "out of file descriptors")
            case .failed(let code):
                logger.debug("accept failed", metadata: ["errno": "\(code)"])
            }
        }
    }

    /// Stops accepting for `descriptorBackoff` instead of spinning (on EMFILE, or at the reserve).
    private func pauseAccepting(_ listener: Socket, reason: String) {
        descriptors.acceptPaused()
        let (log, suppressed) = warnings.admit("descriptors")
        if log {
            logger.warning("\(reason); pausing accept", metadata: [
                "connections": "\(connectionCount)", "free": "\(descriptors.free)", "reserve": "\(descriptors.reserve)",
                "suppressedSinceLast": "\(suppressed)"])
        }
        let loop = loops[0]
        loop.modify(listener.descriptor, events: [])
        loop.schedule(after: Self.descriptorBackoff) { [weak self] in
            guard let self, !isShuttingDown else { return }
            loop.modify(listener.descriptor, events: .readable)
        }
    }

    private func admit(_ socket: Socket, peer: String) {
        let rejecting = lingeringRejections.load(ordering: .relaxed)
        let overLimit = connectionCount - rejecting >= configuration.maxConnections
        // Within the reserve of free descriptors: told 503, so the process never runs out.
        let outOfDescriptors = !overLimit && !descriptors.hasRoom(for: .connection)
        let overloaded = overLimit || outOfDescriptors
        if overloaded {
            if overLimit { metrics.connectionRejected() } else { descriptors.refusedConnection() }
            let (log, suppressed) = warnings.admit(overLimit ? "limit" : "reserve")
            if log {
                logger.warning(overLimit ? "connection limit reached; answered 503" : "descriptor reserve reached; answered 503",
                               metadata: ["limit": "\(overLimit ? configuration.maxConnections : descriptors.limit)",
                                          "suppressedSinceLast": "\(suppressed)"])
            }
            guard rejecting < Self.maxLingeringRejections else {
                socket.close()
                descriptors.closed()
                return
            }
            lingeringRejections.add(1, ordering: .relaxed)
        }
        nextLoop = (nextLoop + 1) % loops.count
        let loop = loops[nextLoop]
        let connection = HTTPConnection(socket: socket, peer: peer, server: self, loop: loop,
                                        context: contexts[nextLoop], isRejection: overloaded)
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
        if !overloaded { metrics.connectionOpened() }
        let rejection = overloaded ? (overLimit ? Self.overloadedResponse : Self.outOfDescriptorsResponse) : nil
        if loop.inLoop { connection.start(rejecting: rejection) } else { loop.execute { connection.start(rejecting: rejection) } }
    }

    /// Raises the descriptor limit to fit `maxConnections`, or says why it cannot.
    private func raiseDescriptorLimit() {
        let needed = UInt64(configuration.maxConnections) + Self.descriptorHeadroom
        switch System.raiseDescriptorLimit(to: needed) {
        case .sufficient: break
        case .raised(let from, let to):
            logger.info("raised the open-file limit", metadata: ["from": "\(from)", "to": "\(to)"])
        case .capped(let needed, let hard):
            logger.warning("""
                the open-file limit cannot reach \(needed) (maxConnections + \(Self.descriptorHeadroom)): the hard \
                limit is \(hard); raise it (ulimit -Hn, or the container's nofile limit) or lower \
                server.limits.maxConnections; until then clients beyond it wait or get 503
                """)
        case .failed(let code):
            logger.warning("cannot read or raise the open-file limit", metadata: ["errno": "\(code)"])
        }
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
        descriptors.censusIfNear(now: now)
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
        guard removed != nil else { return }
        descriptors.closed()
        if connection.isRejection {
            lingeringRejections.subtract(1, ordering: .relaxed)
        } else {
            metrics.connectionClosed()
        }
    }

    /// Stops accepting, lets requests in flight finish, closes idle connections (orderly: FIN,
    /// then a short linger), and calls `completion` once every connection is closed or
    /// `gracePeriod` seconds have passed, and every event loop has stopped. A second call
    /// waits for the first one's end (its `gracePeriod` is not used).
    public func shutdown(gracePeriod: Double = 10, completion: @escaping @Sendable () -> Void) {
        let ended = shutdownWaiters.withLock { waiters in
            waiters?.append(completion)
            return waiters == nil
        }
        if ended { return completion() }
        guard !shuttingDown.exchange(true, ordering: .relaxed) else { return }
        // The shutdown's end calls every waiter (this caller's `completion` among them).
        let finish: @Sendable () -> Void = { [self] in
            let waiters = shutdownWaiters.withLock { waiters in
                defer { waiters = nil }
                return waiters ?? []
            }
            for waiter in waiters { waiter() }
        }
        guard let first = loops.first, let acceptor else {
            finish()
            return
        }
        first.execute { [self] in
            first.close(acceptor.listener.descriptor)
            for connection in connections.withLock({ Array($0.values) }) {
                connection.loop.execute { connection.shutdownGracefully() }
            }
            let deadline = Monotonic.nanoseconds + Monotonic.nanoseconds(gracePeriod)
            waitForConnections(until: deadline, completion: finish)
        }
    }

    private func waitForConnections(until deadline: UInt64, completion: @escaping @Sendable () -> Void) {
        let remaining = connections.withLock { Array($0.values) }
        if remaining.isEmpty {
            // Each loop's access log is written out once the loop has run its last task.
            let stopped = DispatchGroup()
            for (loop, context) in zip(loops, contexts) {
                stopped.enter()
                loop.stop {
                    context.accessLog?.flush()
                    stopped.leave()
                }
            }
            stopped.notify(queue: .global()) { completion() }
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
final class HTTPAcceptor: IOEventHandler, @unchecked Sendable {
    let listener: Socket
    private weak var server: HTTPServer?

    init(listener: Socket, server: HTTPServer) {
        self.listener = listener
        self.server = server
    }

    func handleEvents(_ events: IOEvents) {
        server?.acceptPending(from: listener)
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
