import Foundation
import Sockets
import Synchronization
import Testing
@testable import TileHTTP

/// A loop's memo of request heads: a head seen before is not parsed again, and an answer the
/// responder marked for reuse is given again to the same head while its mark holds.
@Suite(.timeLimit(.minutes(1))) struct HTTPHeadMemoTests {
    private func parse(_ text: String, with parser: inout HTTPRequestParser) throws -> [HTTPRequest] {
        parser.append(Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try parser.next() { requests.append(request) }
        return requests
    }

    @Test func aHeadSeenBeforeIsNotParsedAgainAndParsesTheSame() throws {
        let memo = HTTPHeadMemo()
        var parser = HTTPRequestParser(limits: HTTPParserLimits(), memo: memo)
        var plain = HTTPRequestParser()
        let head = "GET /3/2/4.png?v=1 HTTP/1.1\r\nHost: example.org\r\nAccept: image/*\r\n\r\n"
        let thrice = try parse(head + head + head, with: &parser)
        #expect(thrice.count == 3)
        #expect(thrice[0] == thrice[1] && thrice[1] == thrice[2])
        #expect(thrice[2] == (try parse(head, with: &plain)).first, "the remembered request is the parse")
        #expect(thrice[0].remembered == nil, "a head seen once is only noted")
        let second = try #require(thrice[1].remembered, "the second time it is remembered")
        #expect(thrice[2].remembered === second, "the third is the memo's")
        #expect(thrice[2].pathSegments == ["3", "2", "4.png"] && thrice[2].query == "v=1")

        let otherHead = "GET /3/2/4.png?v=1 HTTP/1.1\r\nHost: example.net\r\nAccept: image/*\r\n\r\n"
        let other = try parse(otherHead + otherHead, with: &parser)
        #expect(other[1].remembered != nil && other[1].remembered !== second, "one byte differs: another head")
        #expect(other[1].headers[.host] == "example.net")

        let withBody = try parse(String(repeating: "POST /p HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", count: 2), with: &parser)
        #expect(withBody.map(\.body) == [Array("abc".utf8), Array("abc".utf8)])
        #expect(withBody.allSatisfy { $0.remembered == nil }, "a head with a body is not remembered")

        let long = "GET / HTTP/1.1\r\nHost: x\r\nCookie: \(String(repeating: "c", count: HTTPHeadMemo.maxHeadBytes))\r\n\r\n"
        #expect(try parse(long + long, with: &parser).allSatisfy { $0.remembered == nil }, "a long head is parsed each time")
    }

    /// Counts its calls and the answers given again; marks the answers of `/reusable`.
    final class ReusingResponder: HTTPResponder {
        let reuse = HTTPAnswerReuse()
        let calls = Atomic<Int>(0)
        let givenAgain = Atomic<Int>(0)

        func respond(
            to request: HTTPRequest, context: HTTPRequestContext, completion: @escaping @Sendable (HTTPResponse) -> Void
        ) -> HTTPResponse? {
            let call = calls.add(1, ordering: .relaxed).newValue
            var response = HTTPResponse.text(.ok, "answer \(call)")
            if request.pathSegments == ["reusable"] { response.reuse = reuse.mark(tag: "reusable") }
            return response
        }

        func answeredAgain(_ response: HTTPResponse) {
            #expect(response.reuse?.tag == "reusable")
            givenAgain.add(1, ordering: .relaxed)
        }
    }

    private func text(_ client: WireClient, _ head: String = "GET /reusable HTTP/1.1\r\nHost: x\r\n\r\n") -> String? {
        client.send(head)
        return client.readAnswer().map { String(decoding: $0.body, as: UTF8.self) }
    }

    @Test(arguments: IOTransport.available)
    func aMarkedAnswerIsGivenAgainWhileItsMarkHolds(transport: IOTransport) async throws {
        let responder = ReusingResponder()
        try await withLiveServer(transport, responder: responder) { port in
            let client = try WireClient(port: port)
            #expect(text(client) == "answer 1\n", "a head seen once is only noted")
            #expect(text(client) == "answer 2\n", "remembered the second time, with its answer")
            #expect(text(client) == "answer 2\n")
            #expect(text(client) == "answer 2\n")
            #expect(responder.calls.load(ordering: .relaxed) == 2 && responder.givenAgain.load(ordering: .relaxed) == 2)
            for call in 3 ... 5 {
                #expect(text(client, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n") == "answer \(call)\n", "not marked: asked each time")
            }
            #expect(text(client, "GET /reusable HTTP/1.1\r\nHost: y\r\n\r\n") == "answer 6\n", "another head")
            #expect(text(client, "GET /reusable HTTP/1.1\r\nHost: y\r\n\r\n") == "answer 7\n")

            Thread.sleep(forTimeInterval: Double(HTTPAnswerReuse.lifetime) / 1e9 + 0.05)
            #expect(text(client) == "answer 8\n", "past its lifetime")
            #expect(text(client) == "answer 8\n")
            responder.reuse.revoke()
            #expect(text(client) == "answer 9\n", "revoked")
            #expect(text(client) == "answer 9\n", "a mark taken after the revoke holds")
            responder.reuse.retire()
            #expect(text(client) == "answer 10\n", "retired")
            #expect(text(client) == "answer 11\n", "a mark taken after retiring never holds")
            #expect(responder.givenAgain.load(ordering: .relaxed) == 4)
        }
    }

    @Test func aServerThatRemembersNoHeadsAsksEachTime() async throws {
        let responder = ReusingResponder()
        try await withLiveServer(.platformDefault, responder: responder, configure: { $0.remembersHeads = false }) { port in
            let client = try WireClient(port: port)
            #expect(text(client) == "answer 1\n")
            #expect(text(client) == "answer 2\n")
            #expect(responder.givenAgain.load(ordering: .relaxed) == 0)
        }
    }

    @Test func expiredAnswersAreLetGo() throws {
        let memo = HTTPHeadMemo()
        let reuse = HTTPAnswerReuse()
        let head = Array("GET / HTTP/1.1\r\n\r\n".utf8)
        let parsed = HTTPRequest(method: .get, target: "/", pathSegments: [], query: nil)
        let request = head.withUnsafeBytes { bytes in
            guard case .unknown(let hash) = memo.lookUp(bytes) else { return parsed }
            _ = memo.remember(bytes, hash: hash, as: parsed)
            return memo.remember(bytes, hash: hash, as: parsed)
        }
        let entry = try #require(request.remembered)
        var answer = HTTPResponse.text(.ok, "tile")
        memo.keep(answer, for: entry, now: 1_000)
        #expect(entry.answer == nil, "not marked: not kept")
        answer.reuse = reuse.mark(tag: "t")
        memo.keep(answer, for: entry, now: 1_000)
        #expect(memo.answer(for: entry, now: 1_000 + HTTPAnswerReuse.lifetime - 1)?.body == answer.body)
        memo.dropExpiredAnswers(now: 1_000 + HTTPAnswerReuse.lifetime - 1)
        #expect(entry.answer != nil)
        memo.dropExpiredAnswers(now: 1_000 + HTTPAnswerReuse.lifetime)
        #expect(entry.answer == nil, "its body is not held past its time")
    }
}
