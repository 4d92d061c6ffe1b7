// The logic of one HTTP/1.1 connection as a pure value: events in (bytes read, write progress,
// end of input, an answer, a timer, shutdown), actions out (respond, send, linger, close). It
// does no I/O and reads no clock: the transport passes `now` in, so every transition is
// testable without sockets (NIO's and Hummingbird's connection state machines work this way).

import Sockets

/// One connection's state: the request parser, where the connection is in its life, and what
/// the transport reported of its output.
public struct HTTPConnectionStateMachine: Sendable {
    /// Where the connection is in its life.
    enum Phase: Equatable {
        /// Taking requests: parsing what arrives, answering in order.
        case reading
        /// A request is with the application; nothing more is parsed until its answer.
        case awaiting(AwaitedRequest)
        /// An answer asked the connection to rest (`HTTPResponse.restSeconds`): nothing is read
        /// or parsed until then, when it takes requests again.
        case resting(until: UInt64)
        /// No more requests will be taken: the output drains, then the connection lingers or closes.
        case closing
        /// Our side is shut (FIN sent); what the client still sends is discarded until its
        /// end-of-file or the deadline, so it reads our last answer instead of a reset.
        case lingering(until: UInt64)
        /// Done.
        case closed
    }

    /// The request the application is answering.
    struct AwaitedRequest: Equatable {
        var id: UInt64
        var method: HTTPMethod
        var version: HTTPVersion
        var target: String
        var keepAlive: Bool
        var started: UInt64
        var deadline: UInt64
    }

    /// What the transport does next. After `respond` it reports `answerReady` (now or later,
    /// waiting meanwhile); after `send` it writes and reports `wrote`; after `lingerClose` it
    /// shuts its sending side and waits; after `close` it closes the socket.
    public enum Action: Sendable {
        /// Nothing until the next event.
        case wait
        /// Hand this request, numbered `id`, to the application.
        case respond(HTTPRequest, id: UInt64)
        /// Queue this answer and write.
        case send(HTTPOutgoingResponse)
        /// Shut down the sending side and keep discarding input until end-of-file or the deadline.
        case lingerClose
        /// Close the socket now.
        case close
    }

    /// Timeouts, in nanoseconds of the injected clock.
    public struct Timeouts: Sendable, Equatable {
        /// From a request's first byte to its complete header section (408 after).
        public var header: UInt64
        /// An idle keep-alive connection, and a stalled write (no progress), close after this.
        public var idle: UInt64
        /// The application has this long to answer (503 after).
        public var answer: UInt64
        /// How long a closing connection discards input.
        public var linger: UInt64

        /// Timeouts in seconds.
        public init(headerSeconds: Double, idleSeconds: Double, answerSeconds: Double, lingerSeconds: Double = 2) {
            header = Monotonic.nanoseconds(headerSeconds)
            idle = Monotonic.nanoseconds(idleSeconds)
            answer = Monotonic.nanoseconds(answerSeconds)
            linger = Monotonic.nanoseconds(lingerSeconds)
        }
    }

    /// Unwritten output beyond which no more requests are parsed (and no more bytes read)
    /// until it drains: a pipelining client cannot make the server buffer answers without end.
    public static let outputHighWater = 1 << 20

    private(set) var phase: Phase = .reading
    private(set) var parser: HTTPRequestParser
    private let timeouts: Timeouts
    /// The client sent end-of-file.
    private(set) var inputFinished = false
    /// Bytes queued and not yet written, as the transport last reported.
    private(set) var outputPending = 0
    /// When the output last made progress (or was queued onto an empty queue).
    private var lastWriteProgress: UInt64 = 0
    /// When the connection last became idle (started, or its output drained).
    private var idleSince: UInt64
    /// The first byte of the request being received, for the header timeout.
    private var requestStarted: UInt64?
    private var lastAnswerID: UInt64 = 0
    /// The server is shutting down: answer what is in progress, then close.
    private var shuttingDown = false

    /// A connection accepted at `now`.
    public init(limits: HTTPParserLimits, timeouts: Timeouts, now: UInt64) {
        self.init(limits: limits, timeouts: timeouts, now: now, memo: nil)
    }

    /// A machine whose parser looks heads up in `memo` (its loop's) before parsing them.
    init(limits: HTTPParserLimits, timeouts: Timeouts, now: UInt64, memo: HTTPHeadMemo?) {
        parser = HTTPRequestParser(limits: limits, memo: memo)
        self.timeouts = timeouts
        idleSince = now
    }

    // MARK: What the transport applies after each event

    /// Whether the transport should read from the socket now.
    public var wantsRead: Bool {
        switch phase {
        case .reading: return !inputFinished && outputPending < Self.outputHighWater
        case .lingering: return !inputFinished
        case .awaiting, .resting, .closing, .closed: return false
        }
    }

    /// Whether the transport should wait for the socket to take more output.
    public var wantsWrite: Bool { outputPending > 0 && phase != .closed }

    /// When `timerFired` should next be called; nil for never.
    public var deadline: UInt64? {
        let writeDeadline = outputPending > 0 ? lastWriteProgress + timeouts.idle : nil
        switch phase {
        case .closed:
            return nil
        case .lingering(let until):
            return until
        case .awaiting(let request):
            return min(request.deadline, writeDeadline ?? .max)
        case .resting(let until):
            return min(until, writeDeadline ?? .max)
        case .closing:
            return writeDeadline
        case .reading:
            if let writeDeadline { return writeDeadline }
            if let requestStarted { return requestStarted + timeouts.header }
            return idleSince + timeouts.idle
        }
    }

    /// Whether the connection is closed.
    public var isClosed: Bool { phase == .closed }

    // MARK: Events

    /// The server could not take the connection (too many open): send `response`, then close
    /// with a linger so the client reads it.
    public mutating func reject(with response: HTTPResponse, now: UInt64) -> Action {
        phase = .closing
        return .send(HTTPOutgoingResponse(response: response, keepAlive: false, started: now))
    }

    /// `bytes` arrived from the client.
    public mutating func bytesRead(_ bytes: UnsafeRawBufferPointer, now: UInt64) -> Action {
        switch phase {
        case .reading:
            parser.append(bytes)
            if requestStarted == nil && parser.hasPartialRequest { requestStarted = now }
            return nextRequest(now: now)
        case .resting:
            parser.append(bytes)  // parsed once the rest is over
            return .wait
        case .lingering, .awaiting, .closing, .closed:
            // Lingering discards; the other phases do not read (the transport asks `wantsRead`).
            return .wait
        }
    }

    /// The client sent end-of-file: answer what it sent, then close.
    public mutating func inputEnded(now: UInt64) -> Action {
        inputFinished = true
        switch phase {
        case .lingering:
            phase = .closed
            return .close
        case .reading:
            return nextRequest(now: now)
        case .awaiting, .resting, .closing, .closed:
            return .wait
        }
    }

    /// The application answered request `id` (a second answer, or one after the deadline, is ignored).
    public mutating func answerReady(_ response: HTTPResponse, id: UInt64, now: UInt64) -> Action {
        guard case .awaiting(let request) = phase, request.id == id else { return .wait }
        let keepAlive = request.keepAlive && !shuttingDown && !parser.bodyWithheld
        phase = keepAlive ? .reading : .closing
        if keepAlive, let rest = response.restSeconds, rest > 0 { phase = .resting(until: now + Monotonic.nanoseconds(rest)) }
        return .send(HTTPOutgoingResponse(response: response, method: request.method, version: request.version,
                                          keepAlive: keepAlive, target: request.target, started: request.started))
    }

    /// The transport queued what a `send` asked for and wrote: `written` bytes went out,
    /// `pending` are still queued.
    public mutating func wrote(_ written: Int, pending: Int, now: UInt64) -> Action {
        if written > 0 || outputPending == 0 { lastWriteProgress = now }
        outputPending = pending
        if pending == 0 { idleSince = now }
        switch phase {
        case .reading: return nextRequest(now: now)
        case .closing: return finishWhenDrained(now: now)
        case .awaiting, .resting, .lingering, .closed: return .wait
        }
    }

    /// A read or write failed (a reset, a broken pipe), or the socket hung up: close.
    public mutating func connectionFailed() -> Action {
        guard phase != .closed else { return .wait }
        phase = .closed
        return .close
    }

    /// The transport's timer: acts when `deadline` has passed.
    public mutating func timerFired(now: UInt64) -> Action {
        guard let deadline, deadline <= now else { return .wait }
        let writeStalled = outputPending > 0 && lastWriteProgress + timeouts.idle <= now
        switch phase {
        case .closed:
            return .wait
        case .awaiting(let request) where !writeStalled:
            // The application did not answer in time: say so, and close (a late answer is ignored).
            phase = .closing
            let seconds = Double(timeouts.answer) / 1e9
            var response = Self.errorAnswer(.serviceUnavailable, "no answer within \(Self.format(seconds)) s; retry later")
            response.headers.add(.retryAfter, "1")
            return .send(HTTPOutgoingResponse(response: response, method: request.method, version: request.version,
                                              keepAlive: false, target: request.target, started: request.started))
        case .resting where !writeStalled:
            // The rest is over: requests that came meanwhile are taken now.
            phase = .reading
            return nextRequest(now: now)
        case .reading where !writeStalled && requestStarted != nil:
            phase = .closing
            let seconds = Double(timeouts.header) / 1e9
            return .send(HTTPOutgoingResponse(
                response: Self.errorAnswer(.requestTimeout, "request header not received within \(Self.format(seconds)) s"),
                keepAlive: false, started: now))
        default:
            // Idle past its time, a write stalled, or the linger is over.
            phase = .closed
            return .close
        }
    }

    /// The server is shutting down: an idle connection closes now (orderly, with a linger),
    /// a busy one after its current answer.
    public mutating func shutdown(now: UInt64) -> Action {
        shuttingDown = true
        if case .resting = phase { phase = .reading }  // nothing is owed to a resting client
        guard case .reading = phase, !parser.hasPartialRequest else { return .wait }
        phase = .closing
        return finishWhenDrained(now: now)
    }

    // MARK: Transitions

    /// Takes the next complete request, if any, while taking requests.
    private mutating func nextRequest(now: UInt64) -> Action {
        guard case .reading = phase, outputPending < Self.outputHighWater else { return .wait }
        let request: HTTPRequest
        do {
            guard let next = try parser.next() else {
                if !parser.hasPartialRequest { requestStarted = nil }
                if inputFinished || shuttingDown && requestStarted == nil {
                    phase = .closing
                    return finishWhenDrained(now: now)
                }
                return .wait
            }
            request = next
        } catch {
            phase = .closing
            return .send(HTTPOutgoingResponse(response: Self.errorAnswer(error.status, error.description), keepAlive: false,
                                              started: now, parseError: error))
        }
        requestStarted = parser.hasPartialRequest ? now : nil
        lastAnswerID &+= 1
        phase = .awaiting(AwaitedRequest(
            id: lastAnswerID, method: request.method, version: request.version, target: request.target,
            keepAlive: request.keepAlive, started: now, deadline: now + timeouts.answer))
        return .respond(request, id: lastAnswerID)
    }

    /// Closing: once the output is out, close at once if the client has finished sending (no
    /// unread input, so no reset), else shut our side and linger.
    private mutating func finishWhenDrained(now: UInt64) -> Action {
        guard outputPending == 0 else { return .wait }
        if inputFinished {
            phase = .closed
            return .close
        }
        phase = .lingering(until: now + timeouts.linger)
        return .lingerClose
    }

    /// An answer about the connection or the request's framing: never stored by a cache.
    private static func errorAnswer(_ status: HTTPStatus, _ text: String) -> HTTPResponse {
        .text(status, text, headers: [.cacheControl: "no-store"])
    }

    private static func format(_ seconds: Double) -> String {
        seconds == seconds.rounded() ? String(Int(seconds)) : String(seconds)
    }
}

/// An answer on its way out, with what the connection needs to frame and log it.
public struct HTTPOutgoingResponse: Sendable {
    /// The answer.
    public var response: HTTPResponse
    /// The request's method (HEAD: no body is sent).
    public var method: HTTPMethod
    /// The request's version (the `Connection` header depends on it).
    public var version: HTTPVersion
    /// Whether the connection stays open after it.
    public var keepAlive: Bool
    /// The request target, for the access log; nil when no request was parsed.
    public var target: String?
    /// When the request was taken (monotonic nanoseconds).
    public var started: UInt64
    /// The parse error this answers, if any (logged).
    public var parseError: HTTPParseError?

    /// An outgoing answer.
    public init(
        response: HTTPResponse, method: HTTPMethod = .get, version: HTTPVersion = .http1_1, keepAlive: Bool,
        target: String? = nil, started: UInt64, parseError: HTTPParseError? = nil
    ) {
        self.response = response
        self.method = method
        self.version = version
        self.keepAlive = keepAlive
        self.target = target
        self.started = started
        self.parseError = parseError
    }
}
