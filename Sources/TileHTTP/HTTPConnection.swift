// One client connection: read → parse → respond → write, in order, on one event loop's thread.

import Logging
import Sockets
import Synchronization

/// A client connection driven by its `EventLoop` (level-triggered epoll).
///
/// `@unchecked Sendable`: all mutable state is touched only on `loop`'s thread (asserted in
/// debug builds); `deadline` is atomic so the server's sweeper can read it from elsewhere.
final class HTTPConnection: EventLoopHandler, @unchecked Sendable {
    let socket: Socket
    let peer: String
    let loop: EventLoop
    /// Monotonic nanoseconds at which `deadlineExpired` should act; 0 when none.
    let deadline = Atomic<UInt64>(0)

    /// Strong: an open connection keeps its server alive (the server drops the connection when
    /// it closes, which breaks the cycle), so releasing a server with open connections is safe.
    private let server: HTTPServer
    private var parser: HTTPRequestParser
    /// The events registered with the loop now.
    private var interest: EventLoop.Events = []
    private var readSuspended = false
    private var writeActive = false
    private var output = HTTPOutputQueue()
    private var awaitingResponse = false
    private var closeAfterWrite = false
    /// The client sent end-of-file: answer what it sent, then close.
    private var peerFinished = false
    private var lingering = false
    private var closed = false
    private var headerDeadlineSet = false

    /// Output beyond which the connection stops reading more requests until it drains.
    private static let outputHighWater = 1 << 20
    /// Seconds to keep reading (and discarding) after an error answer, so the client sees it.
    private static let lingerSeconds = 2.0
    /// Bytes read per `read` call.
    private static let readChunk = 16384

    /// The Date line of this connection's loop (one cache per loop: no lock shared between loops).
    private let dateCache: HTTPDateCache

    init(socket: Socket, peer: String, server: HTTPServer, loop: EventLoop, dateCache: HTTPDateCache) {
        self.socket = socket
        self.peer = peer
        self.server = server
        self.loop = loop
        self.dateCache = dateCache
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
    }

    /// Starts reading. Called once, on `loop`, after the server registered the connection.
    func start() {
        assertInLoop()
        setDeadline(after: server.configuration.idleTimeout)
        interest = [.readable, .readHangUp]
        do {
            try loop.register(socket.descriptor, events: interest, handler: self)
        } catch {
            server.logger.warning("cannot watch connection", metadata: ["peer": "\(peer)", "error": "\(error)"])
            interest = []
            close()
        }
    }

    private func assertInLoop() {
        assert(loop.inLoop, "HTTPConnection used off its event loop")
    }

    // MARK: Events

    func handleEvents(_ events: EventLoop.Events) {
        guard !closed else { return }
        // An error, or both directions shut (a reset, or the client's FIN after ours): nothing
        // more can be sent, and level-triggered hang-ups would repeat until the close.
        if !events.isDisjoint(with: [.error, .hangUp]) {
            close()
            return
        }
        if events.contains(.writable) && writeActive {
            flush()
            if closed { return }
            processRequests()
        }
        if !events.isDisjoint(with: [.readable, .readHangUp]) && !readSuspended && !closed {
            handleReadable()
        }
    }

    /// Registers the events the connection's state wants, when they changed.
    private func updateInterest() {
        var wanted: EventLoop.Events = []
        if !readSuspended { wanted.formUnion([.readable, .readHangUp]) }
        if writeActive { wanted.insert(.writable) }
        guard wanted != interest, !closed else { return }
        interest = wanted
        loop.modify(socket.descriptor, events: wanted)
    }

    // MARK: Reading and parsing

    private func handleReadable() {
        assertInLoop()
        var reads = 0
        readLoop: while reads < 4 {
            reads += 1
            let result = withUnsafeTemporaryAllocation(byteCount: Self.readChunk, alignment: 1) { buffer in
                let result = socket.read(into: buffer)
                if case .bytes(let n) = result, !lingering {
                    parser.append(UnsafeRawBufferPointer(rebasing: buffer[..<n]))
                }
                return result
            }
            switch result {
            case .bytes(let n):
                if n < Self.readChunk { break readLoop }
            case .wouldBlock:
                break readLoop
            case .endOfFile:
                peerClosed()
                return
            case .failed:
                close()
                return
            }
        }
        if lingering { return }
        processRequests()
    }

    private func peerClosed() {
        // The client will send nothing more (it may have half-closed after a pipeline, as
        // `nc -N` does): answer every complete request it sent, then close.
        suspendReading()
        peerFinished = true
        if lingering { close() } else { processRequests() }
    }

    /// Parses and answers every complete request in order, then writes.
    private func processRequests() {
        assertInLoop()
        var pausedAtHighWater = false
        repeat {
            parseAndRespond()
            pausedAtHighWater = output.byteCount >= Self.outputHighWater
            flush()
            // Paused at the high-water mark but the socket took everything at once: no write
            // event will follow, so go on with the rest of the pipeline now.
        } while pausedAtHighWater && output.isEmpty && !closed
        updateDeadline()
    }

    private func parseAndRespond() {
        while !awaitingResponse && !closeAfterWrite && !closed && output.byteCount < Self.outputHighWater {
            let request: HTTPRequest
            do {
                guard let next = try parser.next() else {
                    if peerFinished { closeAfterWrite = true }
                    break
                }
                request = next
            } catch {
                server.log(parseError: error, peer: peer)
                closeAfterWrite = true
                enqueue(HTTPResponse.text(error.status, error.description), method: .get, version: .http1_1,
                        keepAlive: false, target: nil, started: Monotonic.nanoseconds)
                break
            }
            headerDeadlineSet = false
            awaitingResponse = true
            let keepAlive = request.keepAlive && !server.isShuttingDown
            let started = Monotonic.nanoseconds
            let context = HTTPRequestContext(peer: peer)
            let immediate = server.responder.respond(to: request, context: context) { [self] response in
                loop.execute { [self] in
                    complete(request, response, keepAlive: keepAlive, started: started)
                    processRequests()
                }
            }
            if let immediate {
                complete(request, immediate, keepAlive: keepAlive, started: started)
            } else {
                // Read nothing more until the answer is out: a client must not fill memory
                // with what it sends meanwhile (the parser's limits apply only as it parses).
                suspendReading()
            }
        }
    }

    private func complete(_ request: HTTPRequest, _ response: HTTPResponse, keepAlive: Bool, started: UInt64) {
        assertInLoop()
        awaitingResponse = false
        guard !closed else { return }
        if !keepAlive { closeAfterWrite = true }
        enqueue(response, method: request.method, version: request.version, keepAlive: keepAlive,
                target: request.target, started: started)
    }

    private func enqueue(
        _ response: HTTPResponse, method: HTTPMethod, version: HTTPVersion, keepAlive: Bool,
        target: String?, started: UInt64
    ) {
        // The head in three pieces, none copied: fields (encoded once for a prepared response),
        // the shared Date line, the constant tail.
        let fields = response.preparedHead ?? HTTPResponseEncoder.fields(of: response)
        let dateLine = dateCache.headerLine
        let tail = HTTPResponseEncoder.tail(keepAlive: keepAlive, version: version)
        let headBytes = fields.count + dateLine.count + tail.count
        // HEAD: the same headers as GET, never a body.
        let sendsBody = method != .head && !response.status.forbidsBody
        output.append(fields)
        output.append(dateLine)
        output.append(tail)
        if sendsBody {
            if let file = response.file { output.append(file) } else { output.append(response.body) }
        }
        server.requestFinished(peer: peer, method: method, target: target ?? "-", response: response,
                               bytes: headBytes + (sendsBody ? response.contentLength : 0), started: started)
    }

    // MARK: Writing

    private func flush() {
        assertInLoop()
        guard !closed else { return }
        switch output.write(to: socket) {
        case .done:
            if writeActive {
                writeActive = false
                updateInterest()
            }
            if closeAfterWrite && !awaitingResponse { finishAfterWrite() } else { resumeReadingIfNeeded() }
        case .pending:
            writeActive = true
            if output.byteCount >= Self.outputHighWater { suspendReading() }
            updateInterest()
        case .failed:
            close()
        }
    }

    /// All answers are out and the connection is to close: send FIN, then discard what the
    /// client still sends for a moment (a lingering close, so it reads our answer, not a reset).
    private func finishAfterWrite() {
        if readSuspended || lingering {
            close()
            return
        }
        lingering = true
        socket.shutdownWrite()
        setDeadline(after: Self.lingerSeconds)
    }

    private func suspendReading() {
        if !readSuspended {
            readSuspended = true
            updateInterest()
        }
    }

    private func resumeReadingIfNeeded() {
        if readSuspended && !closeAfterWrite && !peerFinished && !awaitingResponse {
            readSuspended = false
            updateInterest()
        }
    }

    // MARK: Deadlines

    private func setDeadline(after seconds: Double) {
        deadline.store(Monotonic.nanoseconds + UInt64(seconds * 1e9), ordering: .relaxed)
    }

    private func updateDeadline() {
        guard !closed, !lingering else { return }
        if awaitingResponse {
            deadline.store(0, ordering: .relaxed)
        } else if !output.isEmpty {
            setDeadline(after: server.configuration.idleTimeout)
        } else if parser.hasPartialRequest {
            // The header timeout runs from the first byte of a request; more bytes do not extend it.
            if !headerDeadlineSet {
                headerDeadlineSet = true
                setDeadline(after: server.configuration.headerTimeout)
            }
        } else {
            setDeadline(after: server.configuration.idleTimeout)
        }
    }

    /// Called on `loop` by the server's sweeper when `deadline` may have passed.
    func deadlineExpired() {
        assertInLoop()
        let due = deadline.load(ordering: .relaxed)
        guard !closed, due != 0, due <= Monotonic.nanoseconds else { return }
        if !lingering && output.isEmpty && !awaitingResponse && parser.hasPartialRequest {
            server.logger.info("request header timeout", metadata: ["peer": "\(peer)"])
            closeAfterWrite = true
            enqueue(.text(.requestTimeout, "request header not received within \(server.configuration.headerTimeout) s"),
                    method: .get, version: .http1_1, keepAlive: false, target: nil, started: Monotonic.nanoseconds)
            flush()
            if !closed && !lingering { close() }
        } else {
            close()
        }
    }

    // MARK: Shutdown

    /// Graceful shutdown: an idle connection closes now, a busy one after its current answer.
    func shutdownGracefully() {
        assertInLoop()
        guard !closed else { return }
        closeAfterWrite = true
        if !awaitingResponse && output.isEmpty && !lingering { close() }
    }

    /// Closes the connection now: stops watching the socket, closes it, and leaves the server.
    func close() {
        assertInLoop()
        guard !closed else { return }
        closed = true
        deadline.store(0, ordering: .relaxed)
        output.removeAll()
        loop.deregister(socket.descriptor)
        socket.close()
        server.connectionClosed(self)
    }
}
