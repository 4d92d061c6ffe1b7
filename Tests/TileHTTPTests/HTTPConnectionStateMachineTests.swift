// The connection state machine driven event by event, with no socket and a clock of our own.

import Testing
@testable import TileHTTP

/// A machine plus a fake transport's bookkeeping: what it was asked to write, whether it shut
/// its side, whether it closed.
struct Harness {
    var machine: HTTPConnectionStateMachine
    var now: UInt64 = 1_000_000_000
    var sent: [HTTPOutgoingResponse] = []
    var responded: [(request: HTTPRequest, id: UInt64)] = []
    var lingering = false
    var closed = false
    /// Bytes the fake socket takes per write (nil: everything).
    var socketTakes: Int?
    var pending = 0

    static let timeouts = HTTPConnectionStateMachine.Timeouts(
        headerSeconds: 10, idleSeconds: 60, answerSeconds: 30, lingerSeconds: 2)

    init(limits: HTTPParserLimits = HTTPParserLimits()) {
        machine = HTTPConnectionStateMachine(limits: limits, timeouts: Self.timeouts, now: 1_000_000_000)
    }

    /// Carries out `action` and what follows, as the transport does; an application answer is
    /// left to the test (`answer`).
    mutating func run(_ first: HTTPConnectionStateMachine.Action) {
        var action = first
        while true {
            switch action {
            case .wait: return
            case .respond(let request, let id):
                responded.append((request, id))
                action = .wait
            case .send(let outgoing):
                sent.append(outgoing)
                let size = 100 + outgoing.response.body.count
                pending += size
                let written = min(pending, socketTakes ?? pending)
                pending -= written
                action = machine.wrote(written, pending: pending, now: now)
            case .lingerClose:
                lingering = true
                action = .wait
            case .close:
                closed = true
                return
            }
        }
    }

    mutating func receive(_ text: String) {
        let bytes = Array(text.utf8)
        let action = bytes.withUnsafeBytes { machine.bytesRead($0, now: now) }
        run(action)
    }

    mutating func answer(_ status: HTTPStatus = .ok, body: String = "ok", id: UInt64? = nil) {
        let target = id ?? responded.last!.id
        run(machine.answerReady(HTTPResponse.text(status, body), id: target, now: now))
    }

    mutating func drain() {
        let written = pending
        pending = 0
        run(machine.wrote(written, pending: 0, now: now))
    }

    mutating func advance(seconds: Double) {
        now += UInt64(seconds * 1e9)
        run(machine.timerFired(now: now))
    }
}

@Suite struct HTTPConnectionStateMachineTests {
    @Test func aRequestIsHandedOverAnsweredAndTheConnectionStaysOpen() {
        var h = Harness()
        #expect(h.machine.wantsRead)
        h.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.map(\.request.target) == ["/a"])
        #expect(!h.machine.wantsRead, "nothing is read while the answer is pending")
        h.answer()
        #expect(h.sent.count == 1)
        #expect(h.sent[0].keepAlive)
        #expect(h.machine.wantsRead)
        #expect(!h.closed && !h.lingering)
    }

    @Test func pipelinedRequestsAreTakenOneAtATimeInOrder() {
        var h = Harness()
        h.receive("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\nGET /3 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.map(\.request.target) == ["/1"])
        h.answer()
        #expect(h.responded.map(\.request.target) == ["/1", "/2"])
        h.answer()
        h.answer()
        #expect(h.sent.map(\.target) == ["/1", "/2", "/3"])
    }

    /// Defect: empty lines before a request line counted toward no limit and were never
    /// compacted (2 GB of RSS from one connection). Now they count toward the header limit.
    @Test func emptyLinesBeforeARequestCountTowardTheHeaderLimit() {
        var h = Harness(limits: HTTPParserLimits(maxHeaderBytes: 4096))
        let chunk = String(repeating: "\r\n", count: 512)
        for _ in 0 ..< 8 where !h.lingering {
            h.receive(chunk)
            #expect(h.machine.parser.bufferedBytes <= 4096 + chunk.utf8.count)
        }
        #expect(h.sent.map(\.response.status) == [.requestHeaderFieldsTooLarge])
        #expect(h.lingering)
        #expect(!h.machine.wantsRead || h.lingering)
    }

    @Test func emptyLinesAreDroppedFromTheBufferAsTheyArrive() {
        var h = Harness()
        h.receive(String(repeating: "\r\n", count: 1000))
        #expect(h.machine.parser.bufferedBytes == 0)
        h.receive("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.count == 1)
    }

    /// Defect: a connection that was going to close kept reading into its buffer.
    @Test func aConnectionThatWillCloseReadsNoMore() {
        var h = Harness()
        h.receive("GET /a HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        h.socketTakes = 10
        h.answer(body: String(repeating: "x", count: 1000))
        #expect(!h.machine.wantsRead, "closing: no more reads")
        #expect(h.machine.wantsWrite)
        // More bytes offered anyway are not taken.
        h.receive("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.count == 1)
        h.drain()
        #expect(h.lingering, "all out: our side shuts, then the rest is discarded")
        #expect(!h.closed)
        #expect(h.machine.wantsRead, "lingering reads only to discard")
        h.receive("GET /c HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.count == 1)
        h.run(h.machine.inputEnded(now: h.now))
        #expect(h.closed)
    }

    /// Defect: a stalled write's deadline moved whenever anything happened; now only progress moves it.
    @Test func theWriteDeadlineMovesOnlyOnWriteProgress() {
        var h = Harness()
        h.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        h.socketTakes = 0
        h.answer(body: String(repeating: "x", count: 5000))
        let first = h.machine.deadline!
        #expect(first == h.now + Harness.timeouts.idle)
        h.now += 30_000_000_000
        h.run(h.machine.wrote(0, pending: h.pending, now: h.now))
        #expect(h.machine.deadline == first, "no progress: same deadline")
        h.run(h.machine.wrote(100, pending: h.pending - 100, now: h.now))
        #expect(h.machine.deadline == h.now + Harness.timeouts.idle)
        h.advance(seconds: 61)
        #expect(h.closed)
    }

    /// Defect: a connection whose read was suspended for a pending answer was closed at once
    /// after its last answer, as if the client had finished — unread input turned the close
    /// into a reset and the client lost answers. Now it lingers.
    @Test func aConnectionSuspendedForAnAnswerLingersInsteadOfResetting() {
        var h = Harness()
        h.receive("GET /slow HTTP/1.1\r\nHost: x\r\n\r\nGET /last HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        #expect(!h.machine.wantsRead)
        h.answer()
        h.answer()
        #expect(h.sent.map(\.target) == ["/slow", "/last"])
        #expect(h.lingering && !h.closed)
    }

    @Test func endOfInputAfterAPipelineAnswersEverythingThenCloses() {
        var h = Harness()
        h.receive("GET /1 HTTP/1.1\r\nHost: x\r\n\r\nGET /2 HTTP/1.1\r\nHost: x\r\n\r\n")
        h.run(h.machine.inputEnded(now: h.now))
        #expect(!h.closed)
        h.answer()
        h.answer()
        #expect(h.sent.count == 2)
        #expect(h.closed, "the client finished and everything was read: close, no linger")
        #expect(!h.lingering)
    }

    /// Defect: a pending answer had no deadline, and a second completion was written too.
    @Test func aPendingAnswerHasADeadlineAndLateOrSecondAnswersAreIgnored() {
        var h = Harness()
        h.receive("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
        let id = h.responded[0].id
        #expect(h.machine.deadline == h.now + Harness.timeouts.answer)
        h.advance(seconds: 29)
        #expect(h.sent.isEmpty)
        h.advance(seconds: 2)
        #expect(h.sent.map(\.response.status) == [.serviceUnavailable])
        #expect(h.sent[0].response.headers[.retryAfter] != nil)
        #expect(!h.sent[0].keepAlive)
        h.answer(id: id)
        #expect(h.sent.count == 1, "the late answer is dropped")

        var twice = Harness()
        twice.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        let first = twice.responded[0].id
        twice.answer(id: first)
        twice.answer(id: first)
        #expect(twice.sent.count == 1)
    }

    @Test func aHalfSentHeaderTimesOutWith408AndAnIdleConnectionCloses() {
        var h = Harness()
        h.receive("GET /a HTTP/1.1\r\n")
        #expect(h.machine.deadline == h.now + Harness.timeouts.header)
        // More bytes do not extend the header deadline.
        h.now += 5_000_000_000
        h.receive("Host: x\r\n")
        h.advance(seconds: 5.5)
        #expect(h.sent.map(\.response.status) == [.requestTimeout])
        #expect(h.lingering)
        h.advance(seconds: 3)
        #expect(h.closed, "the linger ends")

        var idle = Harness()
        idle.advance(seconds: 59)
        #expect(!idle.closed)
        idle.advance(seconds: 2)
        #expect(idle.closed && idle.sent.isEmpty)
    }

    @Test func aRejectedConnectionSendsItsAnswerThenLingers() {
        var h = Harness()
        h.run(h.machine.reject(with: .text(.serviceUnavailable, "too many"), now: h.now))
        #expect(h.sent.map(\.response.status) == [.serviceUnavailable])
        #expect(h.lingering, "FIN then discard: the client reads the 503 instead of a reset")
        h.receive("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.isEmpty)
    }

    @Test func shutdownClosesAnIdleConnectionOrderlyAndABusyOneAfterItsAnswer() {
        var idle = Harness()
        idle.run(idle.machine.shutdown(now: idle.now))
        #expect(idle.lingering, "FIN first (no reset)")

        var busy = Harness()
        busy.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        busy.run(busy.machine.shutdown(now: busy.now))
        #expect(!busy.lingering)
        busy.answer()
        #expect(busy.sent.count == 1 && !busy.sent[0].keepAlive)
        #expect(busy.lingering)
    }

    @Test func aParseErrorIsAnsweredAndTheConnectionCloses() {
        var h = Harness()
        h.receive("BAD\r\n\r\n")
        #expect(h.sent.map(\.response.status) == [.badRequest])
        #expect(h.sent[0].parseError != nil)
        #expect(h.sent[0].response.headers[.cacheControl] == "no-store", "no cache keeps an answer about framing")
        #expect(h.lingering)
    }

    /// `Expect: 100-continue` gets its final status without waiting for the body; the body
    /// that may follow is not taken for a request.
    @Test func expectContinueGetsItsFinalStatusAtOnce() {
        var h = Harness()
        h.receive("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 5000\r\nExpect: 100-continue\r\n\r\n")
        #expect(h.responded.count == 1)
        h.answer(.contentTooLarge)
        #expect(!h.sent[0].keepAlive)
        #expect(h.lingering)
        h.receive("GET /smuggled HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.count == 1)
    }

    @Test func outputAboveTheHighWaterMarkPausesReadingAndParsing() {
        var h = Harness()
        h.socketTakes = 0
        h.receive("GET /big HTTP/1.1\r\nHost: x\r\n\r\nGET /next HTTP/1.1\r\nHost: x\r\n\r\n")
        h.answer(body: String(repeating: "x", count: HTTPConnectionStateMachine.outputHighWater))
        #expect(!h.machine.wantsRead)
        #expect(h.responded.count == 1, "the next request waits for the output to drain")
        h.drain()
        #expect(h.responded.count == 2)
    }

    @Test func aFailureClosesFromAnyPhase() {
        var h = Harness()
        h.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        h.run(h.machine.connectionFailed())
        #expect(h.closed && h.machine.isClosed)
        #expect(h.machine.deadline == nil)
        h.answer()
        #expect(h.sent.isEmpty)
    }
}
