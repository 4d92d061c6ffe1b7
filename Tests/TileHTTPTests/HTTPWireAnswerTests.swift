// Answers laid out as they go on the wire: head and body in one region of the body arena, sent
// with one sendfile, the Date written again each second without touching a send in progress.

#if os(Linux)
import Glibc
import Sockets
import Synchronization
import TestHTTPClient
import Testing
@testable import TileHTTP
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HTTPWireAnswerTests {
    private static let crlf: [UInt8] = [13, 10]
    private static let firstDate = Array("Date: Wed, 25 Nov 2026 01:00:00 GMT\r\n".utf8)
    private static let secondDate = Array("Date: Wed, 25 Nov 2026 01:00:01 GMT\r\n".utf8)

    private static func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ $0 >> 9) ^ seed }
    }

    /// A prepared answer whose body lies in the arena, marked for reuse.
    private static func arenaAnswer(_ body: [UInt8], reuse: HTTPAnswerReuse = HTTPAnswerReuse()) throws -> HTTPResponse {
        let kept = try #require(HTTPBodyArena.store(body))
        var headers = HTTPHeaders()
        headers.set(.contentType, "image/png")
        var answer = HTTPResponse(status: .ok, headers: headers).prepared(bodyCount: body.count).sendingFile(kept.fileBody)
        answer.reuse = reuse.mark()
        return answer
    }

    @Test(arguments: [70_000, 5_000, 2_048, 4_096 - 150])
    func theRegionHoldsTheHeadAndBodyAsTheyWouldGoApart(count: Int) throws {
        let body = Self.bytes(count, seed: 3)
        let answer = try Self.arenaAnswer(body)
        let wire = try #require(HTTPWireAnswer(answer))
        let fields = try #require(answer.preparedHead)
        let file = try #require(wire.fileBody(dateLine: Self.firstDate, tail: Self.crlf))
        #expect(wire.head == fields + Self.firstDate + Self.crlf)
        #expect(Bool(file.read() == wire.head + body), "the head, then the body, byte for byte")
        #expect(wire.memoryBytes == (wire.head.count + count + 4095) / 4096 * 4096)
        #expect(wire.matches(answer))

        _ = try #require(wire.fileBody(dateLine: Self.secondDate, tail: Self.crlf))
        #expect(Bool(file.read() == fields + Self.secondDate + Self.crlf + body), "a new second: a new Date, the same body")

        let closing = HTTPResponseEncoder.tail(keepAlive: false, version: .http1_1)
        #expect(wire.fileBody(dateLine: Self.firstDate, tail: closing) == nil, "a head that closes is not the one laid out")
        #expect(wire.fileBody(dateLine: Array("Date: x\r\n".utf8), tail: Self.crlf) == nil, "a Date line of another length")
    }

    @Test func onlyAnAnswerFromTheArenaWithPreparedFieldsIsLaidOut() throws {
        let body = Self.bytes(10_000, seed: 5)
        #expect(HTTPWireAnswer(HTTPResponse(status: .ok, body: body).prepared()) == nil, "bytes in the process")
        let kept = try #require(HTTPBodyArena.store(body))
        #expect(HTTPWireAnswer(HTTPResponse(status: .ok).prepared(bodyCount: body.count).sendingFile(kept.fileBody)) != nil)
        var unprepared = HTTPResponse(status: .ok)
        unprepared.file = kept.fileBody
        #expect(HTTPWireAnswer(unprepared) == nil, "no prepared fields")
        let own = HTTPFileBody(descriptor: kept.fileBody.descriptor, offset: kept.fileBody.offset, count: body.count,
                               owner: kept)
        #expect(HTTPWireAnswer(HTTPResponse(status: .ok).prepared(bodyCount: body.count).sendingFile(own)) == nil,
                "a file held open of its own (a tile file) is not copied")
        #expect(!(try #require(HTTPWireAnswer(try Self.arenaAnswer(body)))).matches(try Self.arenaAnswer(body)),
                "the same bytes in another place: another body")
    }

    /// A connected pair of loopback TCP sockets (a send there holds the file's pages until read).
    private struct TCPPair {
        let sender: Int32
        let receiver: Int32

        init() throws {
            let listener = try Socket.listen(host: "127.0.0.1", port: 0)
            defer { listener.close() }
            let client = try Socket.connect(host: "127.0.0.1", port: try listener.localPort())
            var accepted: Socket?
            for _ in 0 ..< 1000 where accepted == nil {
                if case .accepted(let socket, _) = listener.accept() { accepted = socket } else { usleep(1000) }
            }
            sender = try #require(accepted).descriptor
            receiver = client.descriptor
        }

        func receive(_ count: Int) -> [UInt8] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            var polls = 0
            while bytes.count < count, polls < 5000 {
                let n = chunk.withUnsafeMutableBytes { recv(receiver, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
                if n > 0 { bytes += chunk[..<n] } else { polls += 1; usleep(1000) }
            }
            return bytes
        }

        func close() {
            Glibc.close(sender)
            Glibc.close(receiver)
        }
    }

    @Test func aSendInTheKernelKeepsTheDateItWasSentWith() throws {
        let body = Self.bytes(30_000, seed: 9)
        let wire = try #require(HTTPWireAnswer(try Self.arenaAnswer(body)))
        let pair = try TCPPair()
        defer { pair.close() }
        let file = try #require(wire.fileBody(dateLine: Self.firstDate, tail: Self.crlf))
        let sentHead = wire.head
        #expect(Socket(descriptor: pair.sender).sendFile(file.descriptor, offset: file.offset, count: file.count)
            == .written(file.count), "all of it into the socket, nothing read yet")
        _ = try #require(wire.fileBody(dateLine: Self.secondDate, tail: Self.crlf))  // the next second
        #expect(Bool(pair.receive(file.count) == sentHead + body), "the client reads what was sent: the old Date")
        #expect(Bool(file.read() == wire.head + body) && wire.head != sentHead, "the region has the new one")
    }

    private static let tileHead = "GET /1/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n"

    @Test func anAnswerGivenAgainOftenIsLaidOutUntilItsBodyChanges() throws {
        let memo = HTTPHeadMemo(answerLifetime: 1_000, fileAnswers: 0, wireBytes: 1 << 20)
        let entry = try memo.rememberedEntry(Self.tileHead)
        let reuse = HTTPAnswerReuse()
        let answer = try Self.arenaAnswer(Self.bytes(20_000, seed: 1), reuse: reuse)
        memo.keep(answer, for: entry, now: 0)
        for time in 1 ..< HTTPHeadMemo.wireThreshold {
            #expect(memo.answer(for: entry, now: UInt64(time))?.wire == nil, "given again \(time) times: not yet")
        }
        let wire = try #require(memo.answer(for: entry, now: 40)?.wire, "given again often enough")
        #expect(memo.answer(for: entry, now: 41)?.wire === wire)
        #expect(memo.wireBytes == wire.memoryBytes)

        #expect(memo.answer(for: entry, now: 1_000) == nil, "the answer's time is over")
        memo.keep(answer, for: entry, now: 1_000)
        #expect(memo.answer(for: entry, now: 1_001)?.wire === wire, "the same body again: the same layout")
        memo.dropExpiredAnswers(now: 1_500)
        #expect(entry.wire === wire, "the answer is current: its layout stays")

        memo.keep(try Self.arenaAnswer(Self.bytes(20_000, seed: 2), reuse: reuse), for: entry, now: 2_000)
        #expect(entry.wire == nil && memo.wireBytes == 0, "another body: the layout is let go")
        #expect(memo.answer(for: entry, now: 2_001)?.wire == nil)
    }

    @Test func aLayoutOutlivesItsAnswerForAMomentOnly() throws {
        let memo = HTTPHeadMemo(answerLifetime: 1_000, fileAnswers: 0, wireBytes: 1 << 20)
        let entry = try memo.rememberedEntry(Self.tileHead)
        memo.keep(try Self.arenaAnswer(Self.bytes(9_000, seed: 4)), for: entry, now: 0)
        for time in 1 ... HTTPHeadMemo.wireThreshold { _ = memo.answer(for: entry, now: UInt64(time)) }
        #expect(entry.wire != nil)
        memo.dropExpiredAnswers(now: 1_000)
        #expect(entry.answer == nil && entry.wire != nil, "ended a moment ago: the next answer is likely the same")
        memo.dropExpiredAnswers(now: 1_000 + HTTPHeadMemo.wireGrace)
        #expect(entry.wire == nil && memo.wireBytes == 0, "long ended: let go")
    }

    @Test func noLayoutBeyondTheBound() throws {
        let memo = HTTPHeadMemo(answerLifetime: 1_000, fileAnswers: 0, wireBytes: 16_384)
        let entry = try memo.rememberedEntry(Self.tileHead)
        memo.keep(try Self.arenaAnswer(Self.bytes(20_000, seed: 6)), for: entry, now: 0)
        for time in 1 ... HTTPHeadMemo.wireThreshold + 5 {
            #expect(memo.answer(for: entry, now: UInt64(time))?.wire == nil, "20 kB do not fit in 16 KiB")
        }
        #expect(memo.wireBytes == 0)
    }
}

/// Answers every request with one tile-like body from the arena, marked for reuse, and counts
/// the requests it was asked.
private final class ArenaResponder: HTTPResponder {
    let answer: HTTPResponse
    let body: [UInt8]
    let calls = Atomic<Int>(0)

    init(body: [UInt8]) throws {
        self.body = body
        let kept = try #require(HTTPBodyArena.store(body))
        var headers = HTTPHeaders()
        headers.set(.contentType, "image/png")
        answer = HTTPResponse(status: .ok, headers: headers).prepared(bodyCount: body.count).sendingFile(kept.fileBody)
    }

    func respond(
        to request: HTTPRequest, context: HTTPRequestContext, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        calls.add(1, ordering: .relaxed)
        var marked = answer
        marked.reuse = HTTPAnswerReuse().mark()
        return marked
    }
}

extension HTTPWireAnswerTests {
    @Test(arguments: IOTransport.available)
    func aClientAskingOftenGetsTheSameAnswersWholeOverALiveConnection(transport: IOTransport) async throws {
        let body = Self.bytes(150_000, seed: 8)
        let responder = try ArenaResponder(body: body)
        try await withLiveServer(transport, responder: responder, configure: {
            $0.reusedAnswerLifetime = 60
            $0.eventLoops = 1
        }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            let request = "GET /1/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n"
            var heads = Set<String>()
            // Seen once, remembered with its answer, given again, and laid out on the wire.
            for index in 0 ..< HTTPHeadMemo.wireThreshold * 3 {
                client.send(request)
                let answer = client.readResponse()
                #expect(answer?.status == 200 && answer?.length == body.count, "answer \(index)")
                #expect(Bool(answer?.body == body), "answer \(index): the body whole")
                heads.insert(client.lastHead.split(separator: "\r\n").filter { !$0.hasPrefix("Date: ") }.joined(separator: "|"))
            }
            #expect(heads == ["HTTP/1.1 200 OK|Content-Type: image/png|Content-Length: 150000"],
                    "each head the same but for its Date")
            #expect(responder.calls.load(ordering: .relaxed) == 2, "the rest given again")
            client.send("HEAD /1/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = client.readResponse(head: true)
            #expect(head?.body == [] && head?.length == body.count, "HEAD: no body")
        }
    }
}
#endif
