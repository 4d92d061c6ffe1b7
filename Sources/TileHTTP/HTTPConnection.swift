// One client connection: the transport side. It reads, writes and closes as its
// `HTTPConnectionStateMachine` says, on one event loop; it decides nothing itself.

import Logging
import Sockets
import Synchronization

/// A client connection driven by its loop (epoll or Dispatch).
///
/// `@unchecked Sendable`: all mutable state is touched only on `loop` (asserted in debug
/// builds); `deadline` is atomic so the server's sweeper can read it from elsewhere.
final class HTTPConnection: IOEventHandler, @unchecked Sendable {
    let socket: Socket
    let peer: String
    /// `peer` as the access log writes it.
    private let peerText: [UInt8]
    let loop: any IOEventLoop
    /// A connection beyond the limit, only told 503 before it closes.
    let isRejection: Bool
    /// Monotonic nanoseconds at which `deadlineExpired` should act; 0 when none.
    let deadline = Atomic<UInt64>(0)

    /// Strong: an open connection keeps its server alive (the server drops the connection when
    /// it closes, which breaks the cycle), so releasing a server with open connections is safe.
    private let server: HTTPServer
    private var machine: HTTPConnectionStateMachine
    private var output = HTTPOutputQueue()
    /// The events registered with the loop now (nil before registration).
    private var interest: IOEvents?
    private var closed = false
    /// The Date line, access log, request series and read buffer of this connection's loop
    /// (one each per loop: nothing shared between loops).
    private let context: HTTPLoopContext

    /// The address the last request's completion captured, given again to the next request
    /// when no completion holds it any more; nil once closed (it refers to this connection).
    private var spareAddress: HTTPAnswerAddress?

    /// Reads per readiness event, so one busy client cannot hold its loop.
    private static let readsPerEvent = 4

    init(
        socket: Socket, peer: String, server: HTTPServer, loop: any IOEventLoop, context: HTTPLoopContext,
        isRejection: Bool = false
    ) {
        self.isRejection = isRejection
        self.socket = socket
        self.peer = peer
        peerText = Array(peer.utf8)
        self.server = server
        self.loop = loop
        self.context = context
        self.machine = HTTPConnectionStateMachine(limits: server.configuration.limits,
                                                  timeouts: server.configuration.timeouts, now: Monotonic.nanoseconds,
                                                  memo: context.memo)
    }

    /// Starts the connection on `loop`; with `rejection`, only sends it (lingering) and closes.
    func start(rejecting rejection: HTTPResponse? = nil) {
        assertInLoop()
        do {
            try loop.register(socket.descriptor, events: [], handler: self)
            interest = []
        } catch {
            server.logger.warning("cannot watch connection", metadata: ["peer": "\(peer)", "error": "\(error)"])
            closeNow()
            return
        }
        if let rejection {
            run(machine.reject(with: rejection, now: Monotonic.nanoseconds))
        } else {
            applyState()
        }
    }

    private func assertInLoop() {
        assert(loop.inLoop, "HTTPConnection used off its event loop")
    }

    // MARK: Events from the loop

    func handleEvents(_ events: IOEvents) {
        guard !closed else { return }
        // An error, or both directions shut (a reset, or the client's FIN after ours): nothing
        // more can be sent, and level-triggered hang-ups would repeat until the close.
        if !events.isDisjoint(with: [.error, .hangUp]) && !machine.wantsRead {
            run(machine.connectionFailed())
            return
        }
        if events.contains(.writable) && !output.isEmpty {
            run(writeOutput())
            if closed { return }
        }
        if !events.isDisjoint(with: [.readable, .readHangUp, .hangUp, .error]) && machine.wantsRead {
            readInput()
        }
    }

    /// Called on `loop` by the server's sweeper when `deadline` may have passed.
    func deadlineExpired() {
        assertInLoop()
        guard !closed else { return }
        run(machine.timerFired(now: Monotonic.nanoseconds))
    }

    /// Graceful shutdown: an idle connection closes now, a busy one after its current answer.
    func shutdownGracefully() {
        assertInLoop()
        guard !closed else { return }
        run(machine.shutdown(now: Monotonic.nanoseconds))
    }

    /// Closes the connection now, whatever its state (the end of a shutdown's grace period).
    func close() {
        assertInLoop()
        closeNow()
    }

    // MARK: Reading and writing

    private func readInput() {
        let buffer = context.readBuffer
        for _ in 0 ..< Self.readsPerEvent where machine.wantsRead && !closed {
            var last = 0
            let action: HTTPConnectionStateMachine.Action
            switch socket.read(into: buffer) {
            case .bytes(let n):
                last = n
                action = machine.bytesRead(UnsafeRawBufferPointer(rebasing: buffer[..<n]), now: Monotonic.nanoseconds)
            case .wouldBlock: return
            case .endOfFile: action = machine.inputEnded(now: Monotonic.nanoseconds)
            case .failed: action = machine.connectionFailed()
            }
            run(action)
            if last < buffer.count { break }
        }
    }

    /// Writes what is queued and tells the machine how far it got.
    private func writeOutput() -> HTTPConnectionStateMachine.Action {
        let before = output.byteCount
        guard output.write(to: socket) != .failed else {
            output.removeAll()
            return machine.connectionFailed()
        }
        return machine.wrote(before - output.byteCount, pending: output.byteCount, now: Monotonic.nanoseconds)
    }

    /// Carries out `first` and every action that follows from it, then registers the events
    /// and the deadline the machine wants.
    private func run(_ first: HTTPConnectionStateMachine.Action) {
        var action = first
        while !closed {
            // Consumed: the payload (a request, an answer) moves out instead of being copied.
            switch consume action {
            case .wait:
                applyState()
                return
            case .respond(let request, let id):
                action = respond(to: request, id: id)
            case .send(let outgoing):
                enqueue(outgoing)
                action = writeOutput()
            case .lingerClose:
                socket.shutdownWrite()
                action = .wait
            case .close:
                closeNow()
                return
            }
        }
    }

    private func respond(to request: HTTPRequest, id: UInt64) -> HTTPConnectionStateMachine.Action {
        let address = answerAddress(for: id)
        let immediate = server.responder.respond(to: request) { [address] response in
            address.connection.loop.execute { [address] in address.connection.answerArrived(response, at: address) }
        }
        guard let immediate else { return .wait }  // the answer arrives later
        return machine.answerReady(immediate, id: id, now: Monotonic.nanoseconds)
    }

    /// The address for request `id`'s completion: the spare one when nothing else holds it.
    /// Asked only while the connection is open (`run` stops at a close), so the spare it keeps
    /// is let go by `closeNow`.
    private func answerAddress(for id: UInt64) -> HTTPAnswerAddress {
        if isKnownUniquelyReferenced(&spareAddress), let spare = spareAddress {
            spare.id = id
            return spare
        }
        let address = HTTPAnswerAddress(connection: self, id: id)
        spareAddress = address
        return address
    }

    /// A deferred answer, on the loop.
    private func answerArrived(_ response: HTTPResponse, at address: HTTPAnswerAddress) {
        guard !closed else { return }
        run(machine.answerReady(response, id: address.id, now: Monotonic.nanoseconds))
    }

    private func enqueue(_ outgoing: HTTPOutgoingResponse) {
        let response = outgoing.response
        if let error = outgoing.parseError { server.log(parseError: error, peer: peer) }
        // The head in three pieces, none copied: fields (encoded once for a prepared response),
        // the shared Date line, the constant tail.
        let fields = response.preparedHead ?? HTTPResponseEncoder.fields(of: response)
        let dateLine = context.dateCache.headerLine
        let tail = HTTPResponseEncoder.tail(keepAlive: outgoing.keepAlive, version: outgoing.version)
        output.append(fields)
        output.append(dateLine)
        output.append(tail)
        // HEAD: the same headers as GET, never a body.
        let sendsBody = outgoing.method != .head && !response.status.forbidsBody
        if sendsBody { output.append(response.content) }
        server.requestFinished(peer: peerText, method: outgoing.method, target: outgoing.target ?? "-",
                               response: response,
                               bytes: fields.count + dateLine.count + tail.count + (sendsBody ? response.contentLength : 0),
                               started: outgoing.started, context: context)
    }

    /// Registers the events the machine wants, when they changed, and publishes its deadline.
    private func applyState() {
        guard !closed else { return }
        var wanted: IOEvents = []
        if machine.wantsRead { wanted.formUnion([.readable, .readHangUp]) }
        if machine.wantsWrite { wanted.insert(.writable) }
        if let interest, wanted != interest {
            self.interest = wanted
            loop.modify(socket.descriptor, events: wanted)
        }
        deadline.store(machine.deadline ?? 0, ordering: .relaxed)
    }

    /// Stops watching the socket, closes it, and leaves the server.
    private func closeNow() {
        guard !closed else { return }
        closed = true
        spareAddress = nil
        deadline.store(0, ordering: .relaxed)
        output.removeAll()
        if interest != nil { loop.close(socket.descriptor) } else { socket.close() }
        server.connectionClosed(self)
    }
}
