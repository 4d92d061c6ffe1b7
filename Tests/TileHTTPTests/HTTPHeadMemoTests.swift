import Sockets
import Synchronization
import TestHTTPClient
import Testing
@testable import TileHTTP
import TestThreads

/// A loop's memo of request heads: a head seen before is not parsed again, and parses the same;
/// it memoizes parses and nothing else, so the application answers every request.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HTTPHeadMemoTests {
    private func parse(_ text: String, with parser: inout HTTPRequestParser) throws -> [HTTPRequest] {
        parser.append(Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try parser.next() { requests.append(request) }
        return requests
    }

    private func isRemembered(_ head: String, in memo: HTTPHeadMemo) -> Bool {
        if case .remembered = Array(head.utf8).withUnsafeBytes({ memo.lookUp($0) }) { return true }
        return false
    }

    /// Remembers `head` as a GET of "/" (parsed twice: the first time it is only noted).
    private func remember(_ head: String, in memo: HTTPHeadMemo) {
        let parsed = HTTPRequest(method: .get, target: "/", pathSegments: [], query: nil)
        Array(head.utf8).withUnsafeBytes { bytes in
            guard case .unknown(let hash, _) = memo.lookUp(bytes) else { return }
            memo.remember(bytes, hash: hash, as: parsed)
            memo.remember(bytes, hash: hash, as: parsed)
        }
    }

    @Test func aHeadSeenBeforeIsNotParsedAgainAndParsesTheSame() throws {
        let memo = HTTPHeadMemo()
        var parser = HTTPRequestParser(limits: HTTPParserLimits(), memo: memo)
        var plain = HTTPRequestParser()
        let head = "GET /3/2/4.png?v=1 HTTP/1.1\r\nHost: example.org\r\nAccept: image/*\r\n\r\n"
        #expect(try parse(head, with: &parser).count == 1)
        #expect(!isRemembered(head, in: memo), "a head seen once is only noted")
        let twice = try parse(head + head, with: &parser)
        #expect(isRemembered(head, in: memo), "remembered the second time")
        #expect(twice[0] == twice[1])
        #expect(twice[1] == (try parse(head, with: &plain)).first, "the remembered request is the parse")
        #expect(twice[1].pathSegments == ["3", "2", "4.png"] && twice[1].query == "v=1")

        let otherHead = "GET /3/2/4.png?v=1 HTTP/1.1\r\nHost: example.net\r\nAccept: image/*\r\n\r\n"
        let other = try parse(otherHead + otherHead + otherHead, with: &parser)
        #expect(other[2].headers[.host] == "example.net", "another host: another head")

        let body = "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc"
        let withBody = try parse(String(repeating: body, count: 3), with: &parser)
        #expect(withBody.map(\.body) == Array(repeating: Array("abc".utf8), count: 3))
        #expect(!isRemembered("POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\n", in: memo),
                "a head with a body is not remembered")

        let long = "GET / HTTP/1.1\r\nHost: x\r\nCookie: \(String(repeating: "c", count: HTTPHeadMemo.maxHeadBytes))\r\n\r\n"
        _ = try parse(long + long + long, with: &parser)
        #expect(!isRemembered(long, in: memo), "a long head is parsed each time")
    }

    /// Counts its calls.
    final class CountingResponder: HTTPResponder {
        let calls = Atomic<Int>(0)

        func respond(
            to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
        ) -> HTTPResponse? {
            .text(.ok, "answer \(calls.add(1, ordering: .relaxed).newValue)")
        }
    }

    /// The memo keeps parses, never answers: the same head, asked again and again over a live
    /// connection, is answered by the application each time.
    @Test(arguments: IOTransport.available)
    func everyRequestIsAnsweredByTheApplication(transport: IOTransport) async throws {
        let responder = CountingResponder()
        try await withLiveServer(transport, responder: responder) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for call in 1 ... 5 {
                client.send("GET /same HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse()?.text == "answer \(call)\n")
            }
            #expect(responder.calls.load(ordering: .relaxed) == 5)
        }
    }

    /// With a memo shared by every feeding (so most of them find their heads remembered),
    /// pipelined requests cut anywhere parse as without one.
    @Test func aMemoChangesNoParse() {
        let text = "GET /a.png HTTP/1.1\r\nHost: x\r\n\r\nGET /a.png HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhiGET /a.png HTTP/1.1\r\nHost: x\r\n\r\n"
        let input = Array(text.utf8)
        let memo = HTTPHeadMemo()
        let plain = TileHTTPTests.parse(input, pieces: [0 ..< input.count])
        #expect(plain.requests.count == 4 && plain.error == nil)
        for pieces in feedings(of: input.count) {
            #expect(TileHTTPTests.parse(input, pieces: pieces, memo: memo) == plain, "\(pieces)")
        }
    }

    /// Two heads whose hashes are the same modulo the slot count (one slot each would have had
    /// them take turns, neither remembered) share a pair of slots and are both remembered; a
    /// third takes the slot of the one used less lately, and the one found last stays.
    @Test func headsThatShareAPairAreBothRemembered() throws {
        let memo = HTTPHeadMemo()
        var byIndex: [Int: [String]] = [:]
        var sharing: [String] = []
        for index in 0 ..< 1_000_000 where sharing.isEmpty {
            let head = "GET /\(index) HTTP/1.1\r\n\r\n"
            guard case .unknown(let hash, _) = Array(head.utf8).withUnsafeBytes({ memo.lookUp($0) }) else { continue }
            let slot = hash & (HTTPHeadMemo.slotCount - 1)
            byIndex[slot, default: []].append(head)
            if byIndex[slot]!.count == 3 { sharing = byIndex[slot]! }
        }
        try #require(sharing.count == 3)
        remember(sharing[0], in: memo)
        remember(sharing[1], in: memo)
        #expect(isRemembered(sharing[1], in: memo) && isRemembered(sharing[0], in: memo), "one pair, both remembered")
        // sharing[0] was found last: the third head takes sharing[1]'s slot.
        remember(sharing[2], in: memo)
        #expect(isRemembered(sharing[0], in: memo) && isRemembered(sharing[2], in: memo))
        #expect(!isRemembered(sharing[1], in: memo), "the one used less lately made room")
    }

    /// Two heads parsed in turns, whose hashes are the same modulo the slot count, are both
    /// remembered from their second parse (the pair keeps the last two heads it did not remember).
    @Test func headsParsedInTurnsAreBothRemembered() throws {
        let memo = HTTPHeadMemo()
        var bySlot: [Int: String] = [:]
        var twins: (String, Int, String, Int)?
        for index in 0 ..< 1_000_000 where twins == nil {
            let head = "GET /\(index) HTTP/1.1\r\n\r\n"
            guard case .unknown(let hash, _) = Array(head.utf8).withUnsafeBytes({ memo.lookUp($0) }) else { continue }
            let slot = hash & (HTTPHeadMemo.slotCount - 1)
            if let earlier = bySlot[slot], case .unknown(let earlierHash, _) = Array(earlier.utf8).withUnsafeBytes({ memo.lookUp($0) }) {
                twins = (earlier, earlierHash, head, hash)
            }
            bySlot[slot] = head
        }
        let (first, firstHash, second, secondHash) = try #require(twins)
        let parsed = HTTPRequest(method: .get, target: "/", pathSegments: [], query: nil)
        func parse(_ head: String, _ hash: Int) -> Bool {
            Array(head.utf8).withUnsafeBytes { memo.remember($0, hash: hash, as: parsed) }
            return isRemembered(head, in: memo)
        }
        #expect(!parse(first, firstHash) && !parse(second, secondHash), "first parses: seen, not remembered")
        #expect(parse(first, firstHash) && parse(second, secondHash), "second parses: both remembered")
    }
}
