// TileHTTP: an HTTP/1.1 server on POSIX sockets and Dispatch. It knows nothing of tiles:
// it parses requests, hands them to an `HTTPResponder`, and writes the answers in order.

import Dispatch
import Logging
import Sockets
import Synchronization

/// Accepts connections and drives them; built once, then started.
///
/// `@unchecked Sendable`: the listener and accept source are touched only on `acceptQueue`;
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

    let dateCache = HTTPDateCache()
    private let acceptQueue = DispatchQueue(label: "tilelayer.http.accept")
    private let connections = Mutex<[ObjectIdentifier: HTTPConnection]>([:])
    private let shuttingDown = Atomic<Bool>(false)
    private var listener: Socket?
    private var acceptSource: DispatchSourceRead?
    private var sweeper: DispatchSourceTimer?
    private var acceptPaused = false
    /// Serial queues, one per core, that connection queues target round-robin: a busy worker
    /// drains many connections' events without a thread hand-off (a context switch) for each.
    private let workerQueues: [DispatchQueue] = (0 ..< max(1, System.coreCount)).map {
        DispatchQueue(label: "tilelayer.http.worker.\($0)", qos: .userInitiated)
    }
    private var nextWorker = 0
    /// Flood warnings, rate-limited; touched only on `acceptQueue`.
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

    /// Whether a graceful shutdown has begun.
    public var isShuttingDown: Bool { shuttingDown.load(ordering: .relaxed) }

    /// Open connections now.
    public var connectionCount: Int { connections.withLock { $0.count } }

    /// Binds and starts accepting; returns the bound port.
    @discardableResult
    public func start() throws(SocketError) -> Int {
        let socket = try Socket.listen(host: configuration.host, port: configuration.port)
        let port = try socket.localPort()
        acceptQueue.sync {
            listener = socket
            let source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: acceptQueue)
            source.setEventHandler { [weak self] in self?.acceptPending() }
            source.setCancelHandler { socket.close() }
            acceptSource = source
            source.resume()
            let timer = DispatchSource.makeTimerSource(queue: acceptQueue)
            timer.schedule(deadline: .now() + Self.sweepInterval, repeating: Self.sweepInterval)
            timer.setEventHandler { [weak self] in self?.sweepDeadlines() }
            sweeper = timer
            timer.resume()
        }
        return port
    }

    private func acceptPending() {
        dispatchPrecondition(condition: .onQueue(acceptQueue))
        guard let listener, !acceptPaused else { return }
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
                acceptPaused = true
                acceptSource?.suspend()
                acceptQueue.asyncAfter(deadline: .now() + Self.descriptorBackoff) { [self] in
                    guard acceptPaused, !isShuttingDown else { return }
                    acceptPaused = false
                    acceptSource?.resume()
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
        let queue = DispatchQueue(label: "tilelayer.http.connection", target: nextWorkerQueue())
        let connection = HTTPConnection(socket: socket, peer: peer, server: self, queue: queue)
        connections.withLock { $0[ObjectIdentifier(connection)] = connection }
        metrics.connectionOpened()
        connection.start()
    }

    /// The worker queue for the next connection (called on `acceptQueue`).
    private func nextWorkerQueue() -> DispatchQueue {
        nextWorker = (nextWorker + 1) % workerQueues.count
        return workerQueues[nextWorker]
    }

    private func sweepDeadlines() {
        let now = DispatchTime.now().uptimeNanoseconds
        let due = connections.withLock { table in
            table.values.filter { connection in
                let deadline = connection.deadline.load(ordering: .relaxed)
                return deadline != 0 && deadline <= now
            }
        }
        for connection in due {
            connection.queue.async { connection.deadlineExpired() }
        }
    }

    func connectionClosed(_ connection: HTTPConnection) {
        let removed = connections.withLock { $0.removeValue(forKey: ObjectIdentifier(connection)) }
        if removed != nil { metrics.connectionClosed() }
    }

    /// Stops accepting, lets requests in flight finish, closes idle connections, and calls
    /// `completion` when every connection is closed or `gracePeriod` seconds have passed.
    public func shutdown(gracePeriod: Double = 10, completion: @escaping @Sendable () -> Void) {
        guard !shuttingDown.exchange(true, ordering: .relaxed) else { return }
        acceptQueue.async { [self] in
            if acceptPaused { acceptSource?.resume() }
            acceptSource?.cancel()
            acceptSource = nil
            listener = nil
            for connection in connections.withLock({ Array($0.values) }) {
                connection.queue.async { connection.shutdownGracefully() }
            }
            let deadline = DispatchTime.now() + gracePeriod
            waitForConnections(until: deadline, completion: completion)
        }
    }

    private func waitForConnections(until deadline: DispatchTime, completion: @escaping @Sendable () -> Void) {
        let remaining = connections.withLock { Array($0.values) }
        if remaining.isEmpty {
            sweeper?.cancel()
            completion()
            return
        }
        if DispatchTime.now() >= deadline {
            logger.warning("shutdown grace period over; closing connections", metadata: ["open": "\(remaining.count)"])
            for connection in remaining { connection.queue.async { connection.close() } }
        }
        acceptQueue.asyncAfter(deadline: .now() + 0.02) { [self] in
            waitForConnections(until: deadline, completion: completion)
        }
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
