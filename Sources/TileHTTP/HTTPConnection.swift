// One client connection: read → parse → respond → write, in order, on one serial queue.

import Dispatch
import Logging
import Sockets
import Synchronization

/// A client connection driven by Dispatch sources.
///
/// `@unchecked Sendable`: all mutable state is touched only on `queue` (asserted with
/// `dispatchPrecondition`); `deadline` is atomic so the server's sweeper can read it from elsewhere.
final class HTTPConnection: @unchecked Sendable {
    let socket: Socket
    let peer: String
    let queue: DispatchQueue
    /// Monotonic nanoseconds at which `deadlineExpired` should act; 0 when none.
    let deadline = Atomic<UInt64>(0)

    /// Strong: an open connection keeps its server alive (the server drops the connection when
    /// it closes, which breaks the cycle), so releasing a server with open connections is safe.
    private let server: HTTPServer
    private var parser: HTTPRequestParser
    private var readSource: DispatchSourceRead?
    private var writeSource: DispatchSourceWrite?
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

    init(socket: Socket, peer: String, server: HTTPServer, queue: DispatchQueue) {
        self.socket = socket
        self.peer = peer
        self.server = server
        self.queue = queue
        self.parser = HTTPRequestParser(limits: server.configuration.limits)
    }

    /// Starts reading. Called once, after the server registered the connection.
    func start() {
        queue.async { [self] in
            let source = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            source.setEventHandler { [unowned self] in handleReadable() }
            source.setCancelHandler { [self] in sourceCancelled() }
            readSource = source
            setDeadline(after: server.configuration.idleTimeout)
            source.resume()
        }
    }

    // MARK: Reading and parsing

    private func handleReadable() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return }
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
        dispatchPrecondition(condition: .onQueue(queue))
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
                        keepAlive: false, target: nil, started: .now())
                break
            }
            headerDeadlineSet = false
            awaitingResponse = true
            let keepAlive = request.keepAlive && !server.isShuttingDown
            let started = DispatchTime.now()
            let context = HTTPRequestContext(peer: peer)
            let immediate = server.responder.respond(to: request, context: context) { [self] response in
                queue.async { [self] in
                    complete(request, response, keepAlive: keepAlive, started: started)
                    processRequests()
                }
            }
            if let immediate { complete(request, immediate, keepAlive: keepAlive, started: started) }
        }
    }

    private func complete(_ request: HTTPRequest, _ response: HTTPResponse, keepAlive: Bool, started: DispatchTime) {
        dispatchPrecondition(condition: .onQueue(queue))
        awaitingResponse = false
        guard !closed else { return }
        if !keepAlive { closeAfterWrite = true }
        enqueue(response, method: request.method, version: request.version, keepAlive: keepAlive,
                target: request.target, started: started)
    }

    private func enqueue(
        _ response: HTTPResponse, method: HTTPMethod, version: HTTPVersion, keepAlive: Bool,
        target: String?, started: DispatchTime
    ) {
        let head = HTTPResponseEncoder.head(for: response, keepAlive: keepAlive, version: version,
                                            dateLine: server.dateCache.headerLine)
        // HEAD: the same headers as GET, never a body.
        let body = method == .head || response.status.forbidsBody ? [] : response.body
        output.append(head)
        if !body.isEmpty { output.append(body) }
        server.requestFinished(peer: peer, method: method, target: target ?? "-", response: response,
                               bytes: head.count + body.count, started: started)
    }

    // MARK: Writing

    private func flush() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return }
        switch output.write(to: socket) {
        case .done:
            if writeActive {
                writeSource?.suspend()
                writeActive = false
            }
            if closeAfterWrite && !awaitingResponse { finishAfterWrite() } else { resumeReadingIfNeeded() }
        case .pending:
            startWriteSource()
            if output.byteCount >= Self.outputHighWater { suspendReading() }
        case .failed:
            close()
        }
    }

    private func startWriteSource() {
        if writeSource == nil {
            let source = DispatchSource.makeWriteSource(fileDescriptor: socket.descriptor, queue: queue)
            source.setEventHandler { [unowned self] in
                flush()
                if !closed { processRequests() }
            }
            source.setCancelHandler { [self] in sourceCancelled() }
            writeSource = source
        }
        if !writeActive {
            writeActive = true
            writeSource?.resume()
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
        if !readSuspended, let readSource {
            readSource.suspend()
            readSuspended = true
        }
    }

    private func resumeReadingIfNeeded() {
        if readSuspended && !closeAfterWrite && !peerFinished, let readSource {
            readSource.resume()
            readSuspended = false
        }
    }

    // MARK: Deadlines

    private func setDeadline(after seconds: Double) {
        deadline.store(DispatchTime.now().uptimeNanoseconds + UInt64(seconds * 1e9), ordering: .relaxed)
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

    /// Called on `queue` by the server's sweeper when `deadline` may have passed.
    func deadlineExpired() {
        dispatchPrecondition(condition: .onQueue(queue))
        let due = deadline.load(ordering: .relaxed)
        guard !closed, due != 0, due <= DispatchTime.now().uptimeNanoseconds else { return }
        if !lingering && output.isEmpty && !awaitingResponse && parser.hasPartialRequest {
            server.logger.info("request header timeout", metadata: ["peer": "\(peer)"])
            closeAfterWrite = true
            enqueue(.text(.requestTimeout, "request header not received within \(server.configuration.headerTimeout) s"),
                    method: .get, version: .http1_1, keepAlive: false, target: nil, started: .now())
            flush()
            if !closed && !lingering { close() }
        } else {
            close()
        }
    }

    // MARK: Shutdown

    /// Graceful shutdown: an idle connection closes now, a busy one after its current answer.
    func shutdownGracefully() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return }
        closeAfterWrite = true
        if !awaitingResponse && output.isEmpty && !lingering { close() }
    }

    private var pendingCancels = 0

    /// Closes the connection now; the descriptor is closed when both sources are cancelled.
    func close() {
        dispatchPrecondition(condition: .onQueue(queue))
        guard !closed else { return }
        closed = true
        deadline.store(0, ordering: .relaxed)
        output.removeAll()
        pendingCancels = (readSource == nil ? 0 : 1) + (writeSource == nil ? 0 : 1)
        if let readSource {
            readSource.cancel()
            if readSuspended { readSource.resume() }
        }
        if let writeSource {
            writeSource.cancel()
            if !writeActive { writeSource.resume() }
        }
        if pendingCancels == 0 { sourceCancelled(count: false) }
    }

    private func sourceCancelled(count: Bool = true) {
        if count {
            pendingCancels -= 1
            guard pendingCancels == 0 else { return }
        }
        readSource = nil
        writeSource = nil
        socket.close()
        server.connectionClosed(self)
    }
}
