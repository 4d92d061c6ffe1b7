// A connection that rests after an answer asking for it (a refusal under load).

import Testing
@testable import TileHTTP

@Suite struct HTTPConnectionRestTests {
    /// A refusal with `restSeconds` goes out at once; the connection then reads and parses
    /// nothing until the rest is over, when the request that came meanwhile is taken.
    @Test func aRefusalThatAsksForRestIsSentAtOnceAndTheNextRequestWaits() {
        var h = Harness()
        h.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        var refusal = HTTPResponse.text(.serviceUnavailable, "busy", headers: [.retryAfter: "1"])
        refusal.restSeconds = 1
        h.run(h.machine.answerReady(refusal, id: h.responded.last!.id, now: h.now))
        #expect(h.sent.map(\.response.status) == [.serviceUnavailable])
        #expect(h.sent[0].keepAlive)
        #expect(!h.machine.wantsRead, "resting: nothing is read")
        #expect(h.machine.deadline == h.now + 1_000_000_000)
        h.receive("GET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(h.responded.count == 1, "not parsed while resting")
        h.advance(seconds: 0.5)
        #expect(h.responded.count == 1)
        h.advance(seconds: 0.5)
        #expect(h.responded.map(\.request.target) == ["/a", "/b"])
        h.answer()
        #expect(h.machine.wantsRead)
    }

    @Test func anAnswerWithoutRestKeepsReading() {
        var h = Harness()
        h.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\nGET /b HTTP/1.1\r\nHost: x\r\n\r\n")
        h.answer(.serviceUnavailable)
        #expect(h.responded.map(\.request.target) == ["/a", "/b"])
    }

    @Test func aShutdownClosesARestingConnection() {
        var h = Harness()
        h.receive("GET /a HTTP/1.1\r\nHost: x\r\n\r\n")
        var refusal = HTTPResponse.text(.serviceUnavailable, "busy")
        refusal.restSeconds = 5
        h.run(h.machine.answerReady(refusal, id: h.responded.last!.id, now: h.now))
        h.run(h.machine.shutdown(now: h.now))
        #expect(h.lingering || h.closed)
    }
}
