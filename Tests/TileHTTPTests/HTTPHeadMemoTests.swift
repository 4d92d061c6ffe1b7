import Sockets
import Synchronization
import TestHTTPClient
import Testing
@testable import TileHTTP
import TestThreads

/// A loop's memo of request heads: a head seen before is not parsed again, and an answer the
/// responder marked for reuse is given again to the same head while its mark holds.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HTTPHeadMemoTests {
    private func parse(_ text: String, with parser: inout HTTPRequestParser) throws -> [HTTPRequest] {
        parser.append(Array(text.utf8))
        var requests: [HTTPRequest] = []
        while let request = try parser.next() { requests.append(request) }
        return requests
    }

    @Test func aHeadSeenBeforeIsNotParsedAgainAndParsesTheSame() throws {
        let memo = HTTPHeadMemo(answerLifetime: 100_000_000, fileAnswers: 0)
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
        // Read as each request comes (the count is the memo's, and moves with later finds).
        #expect(thrice[0].headRepeats == 0 && thrice[2].headRepeats == 2, "the times the head was seen before")
        #expect(try parse(head, with: &parser).first?.headRepeats == 3)
        let fresh = "GET /fresh HTTP/1.1\r\nHost: x\r\n\r\n"
        #expect(try (0 ..< 4).map { _ in try parse(fresh, with: &parser).first?.headRepeats } == [0, 1, 2, 3])
        #expect(thrice[2].pathSegments == ["3", "2", "4.png"] && thrice[2].query == "v=1")

        let otherHead = "GET /3/2/4.png?v=1 HTTP/1.1\r\nHost: example.net\r\nAccept: image/*\r\n\r\n"
        let other = try parse(otherHead + otherHead, with: &parser)
        #expect(other[1].remembered != nil && other[1].remembered !== second, "another host: another head")
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
        /// What the marks carry back to `answeredAgain`.
        let tag = HTTPAnswerReuse()
        let calls = Atomic<Int>(0)
        let givenAgain = Atomic<Int>(0)

        func respond(
            to request: HTTPRequest, context: HTTPRequestContext, completion: @escaping @Sendable (HTTPResponse) -> Void
        ) -> HTTPResponse? {
            let call = calls.add(1, ordering: .relaxed).newValue
            var response = HTTPResponse.text(.ok, "answer \(call)")
            if request.pathSegments == ["reusable"] { response.reuse = reuse.mark().tagged(tag) }
            return response
        }

        func answeredAgain(_ response: HTTPResponse) {
            #expect(response.reuse?.tag === tag)
            givenAgain.add(1, ordering: .relaxed)
        }
    }

    private func text(_ client: RawHTTPClient, _ head: String = "GET /reusable HTTP/1.1\r\nHost: x\r\n\r\n") -> String? {
        client.send(head)
        return client.readResponse()?.text
    }

    /// The lifetime is a minute here, so only a revoke ends an answer's reuse (its end by time
    /// is `expiredAnswersAreLetGo`'s, on a given clock).
    @Test(arguments: IOTransport.available)
    func aMarkedAnswerIsGivenAgainUntilItIsRevoked(transport: IOTransport) async throws {
        let responder = ReusingResponder()
        try await withLiveServer(transport, responder: responder, configure: { $0.reusedAnswerLifetime = 60 }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            #expect(text(client) == "answer 1\n", "a head seen once is only noted")
            #expect(text(client) == "answer 2\n", "remembered the second time, with its answer")
            #expect(text(client) == "answer 2\n")
            #expect(text(client) == "answer 2\n")
            #expect(responder.calls.load(ordering: .relaxed) == 2 && responder.givenAgain.load(ordering: .relaxed) == 2)
            for call in 3 ... 5 {
                #expect(text(client, "GET /other HTTP/1.1\r\nHost: x\r\n\r\n") == "answer \(call)\n", "not marked: asked each time")
            }
            client.send("HEAD /reusable HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = client.readResponse(head: true)
            #expect(head?.body == [] && head?.length == "answer 6\n".utf8.count, "another head (HEAD): asked, no body")
            #expect(text(client, "GET /reusable HTTP/1.1\r\nHost: y\r\n\r\n") == "answer 7\n", "another head")
            #expect(text(client, "GET /reusable HTTP/1.1\r\nHost: y\r\n\r\n") == "answer 8\n")
            #expect(text(client) == "answer 2\n", "the first head's answer still holds")
            responder.reuse.revoke()
            #expect(text(client) == "answer 9\n", "revoked")
            #expect(text(client) == "answer 9\n", "a mark taken after the revoke holds")
            #expect(responder.givenAgain.load(ordering: .relaxed) == 4)
        }
    }

    @Test func aServerWhoseAnswersLiveNoTimeAsksEachTime() async throws {
        let responder = ReusingResponder()
        try await withLiveServer(.platformDefault, responder: responder, configure: { $0.reusedAnswerLifetime = 0 }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for call in 1 ... 4 { #expect(text(client) == "answer \(call)\n") }
            #expect(responder.givenAgain.load(ordering: .relaxed) == 0)
        }
    }

    /// With a memo shared by every feeding (so most of them find their heads remembered),
    /// pipelined requests cut anywhere parse as without one.
    @Test func aMemoChangesNoParse() {
        let text = "GET /a.png HTTP/1.1\r\nHost: x\r\n\r\nGET /a.png HTTP/1.1\r\nHost: x\r\n\r\n"
            + "POST /b HTTP/1.1\r\nHost: x\r\nContent-Length: 2\r\n\r\nhiGET /a.png HTTP/1.1\r\nHost: x\r\n\r\n"
        let input = Array(text.utf8)
        let memo = HTTPHeadMemo(answerLifetime: 0, fileAnswers: 0)
        let plain = TileHTTPTests.parse(input, pieces: [0 ..< input.count])
        #expect(plain.requests.count == 4 && plain.error == nil)
        for pieces in feedings(of: input.count) {
            #expect(TileHTTPTests.parse(input, pieces: pieces, memo: memo) == plain, "\(pieces)")
        }
    }

    @Test func expiredAnswersAreLetGo() throws {
        let memo = HTTPHeadMemo(answerLifetime: 100_000_000, fileAnswers: 0)
        let reuse = HTTPAnswerReuse()
        let entry = try memo.rememberedEntry("GET / HTTP/1.1\r\n\r\n")
        var answer = HTTPResponse.text(.ok, "tile")
        memo.keep(answer, for: entry, now: 1_000)
        #expect(entry.answer == nil, "not marked: not kept")
        answer.reuse = reuse.mark()
        memo.keep(answer, for: entry, now: 1_000)
        let lifetime = memo.answerLifetime
        #expect(memo.answer(for: entry, now: 1_000 + lifetime - 1)?.body == answer.body)
        #expect(memo.answer(for: entry, now: 1_000 + lifetime) == nil, "past its lifetime")
        memo.keep(answer, for: entry, now: 1_000)
        memo.dropExpiredAnswers(now: 1_000 + lifetime - 1)
        #expect(entry.answer != nil)
        memo.dropExpiredAnswers(now: 1_000 + lifetime)
        #expect(entry.answer == nil, "its body is not held past its time")
    }

    /// An answer whose mark is pinned (its source changes only with a revoke: a memory-cached
    /// tile) is given again for the pinned lifetime, not the plain one, and is let go after it;
    /// a revoke still ends it at once. With a pinned lifetime of 0 such answers are not kept.
    @Test func aPinnedAnswerLivesItsOwnLifetimeUntilARevoke() throws {
        let plain: UInt64 = 100_000_000
        let pinned: UInt64 = 1_000_000_000
        let memo = HTTPHeadMemo(answerLifetime: plain, pinnedLifetime: pinned, fileAnswers: 0)
        let reuse = HTTPAnswerReuse()
        let entry = try memo.rememberedEntry("GET / HTTP/1.1\r\n\r\n")
        var answer = HTTPResponse.text(.ok, "tile")
        answer.reuse = reuse.mark().pinned()
        #expect(answer.reuse?.isPinned == true && reuse.mark().isPinned == false)
        memo.keep(answer, for: entry, now: 1_000)
        #expect(memo.answer(for: entry, now: 1_000 + plain)?.body == answer.body, "past the plain lifetime")
        #expect(memo.answer(for: entry, now: 1_000 + pinned - 1)?.body == answer.body)
        #expect(memo.answer(for: entry, now: 1_000 + pinned) == nil, "past the pinned lifetime")
        memo.keep(answer, for: entry, now: 1_000)
        memo.dropExpiredAnswers(now: 1_000 + plain)
        #expect(entry.answer != nil, "not let go at the plain lifetime")
        memo.dropExpiredAnswers(now: 1_000 + pinned)
        #expect(entry.answer == nil)

        memo.keep(answer, for: entry, now: 1_000)
        reuse.revoke()
        #expect(memo.answer(for: entry, now: 1_001) == nil, "revoked")

        let never = HTTPHeadMemo(answerLifetime: plain, pinnedLifetime: 0, fileAnswers: 0)
        let other = try never.rememberedEntry("GET / HTTP/1.1\r\n\r\n")
        answer.reuse = HTTPAnswerReuse().mark().pinned()
        never.keep(answer, for: other, now: 1_000)
        #expect(other.answer == nil, "a pinned lifetime of 0: not kept")
        answer.reuse = HTTPAnswerReuse().mark()
        never.keep(answer, for: other, now: 1_000)
        #expect(other.answer != nil, "a plain answer still is")
    }

    /// A head asked for less than an answer's lifetime after the ask before is asked for
    /// lately (an answer kept for it would likely be given again); one asked for after a longer
    /// gap, or for the first time, is not.
    @Test func aHeadAskedForWithinALifetimeIsAskedForLately() throws {
        let lifetime: UInt64 = 100_000_000
        let memo = HTTPHeadMemo(answerLifetime: lifetime, fileAnswers: 0)
        let entry = try memo.rememberedEntry("GET /1/0/0.png HTTP/1.1\r\n\r\n")
        _ = memo.answer(for: entry, now: 1_000)
        #expect(!entry.askedLately, "the first ask")
        _ = memo.answer(for: entry, now: 1_000 + lifetime - 1)
        #expect(entry.askedLately)
        _ = memo.answer(for: entry, now: 1_000 + 2 * lifetime - 1)
        #expect(!entry.askedLately, "a lifetime after the ask before")
        _ = memo.answer(for: entry, now: 1_000 + 2 * lifetime)
        #expect(entry.askedLately)
        var request = entry.request
        request.remembered = entry
        #expect(request.headAskedLately)
        request.remembered = nil
        #expect(!request.headAskedLately, "a head not remembered")
    }

    /// Two heads whose hashes are the same modulo the slot count (one slot each would have had
    /// them take turns, neither remembered) share a pair of slots and are both remembered; a
    /// third takes the slot of the one used less lately, and the one found last stays.
    @Test func headsThatShareAPairAreBothRemembered() throws {
        let memo = HTTPHeadMemo(answerLifetime: 100, fileAnswers: 2)
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
        func isRemembered(_ head: String) -> Bool {
            if case .remembered = Array(head.utf8).withUnsafeBytes({ memo.lookUp($0) }) { return true }
            return false
        }
        _ = try memo.rememberedEntry(sharing[0])
        _ = try memo.rememberedEntry(sharing[1])
        #expect(isRemembered(sharing[1]) && isRemembered(sharing[0]), "one pair, both remembered")
        // sharing[0] was found last: the third head takes sharing[1]'s slot.
        _ = try memo.rememberedEntry(sharing[2])
        #expect(isRemembered(sharing[0]) && isRemembered(sharing[2]))
        #expect(!isRemembered(sharing[1]), "the one used less lately made room")
    }

    /// Two heads parsed in turns, whose hashes are the same modulo the slot count, are both
    /// remembered from their second parse (the pair keeps the last two heads it did not remember).
    @Test func headsParsedInTurnsAreBothRemembered() throws {
        let memo = HTTPHeadMemo(answerLifetime: 100, fileAnswers: 2)
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
            Array(head.utf8).withUnsafeBytes { memo.remember($0, hash: hash, as: parsed).remembered != nil }
        }
        #expect(!parse(first, firstHash) && !parse(second, secondHash), "first parses: seen, not remembered")
        #expect(parse(first, firstHash) && parse(second, secondHash), "second parses: both remembered")
    }

    /// Answers that hold a file open of their own (`HTTPFileBody.holdsOpenFile`) are bounded: at most
    /// `fileAnswers` are kept at a time (others, a body in a shared memory file included, are
    /// kept whatever their number), and one let go (expired, revoked, or its head's slot taken
    /// by another head) makes room for another. An answer for an entry no longer in its slot is
    /// not kept at all (nothing would let it go).
    /// Answers whose bodies are bytes in memory are kept while their bodies add up to at most
    /// the memo's budget; one let go (expired, or replaced by a smaller one) makes room. A body
    /// moved to the body arena (given again `arenaThreshold` times) is counted by the pages it
    /// takes there, and moved only within the budget.
    @Test func answersWithBodiesInMemoryAreBounded() throws {
        let memo = HTTPHeadMemo(answerLifetime: 100, fileAnswers: 0, bodyBytes: 10_000)
        let reuse = HTTPAnswerReuse()
        func answer(_ count: Int) -> HTTPResponse {
            var answer = HTTPResponse(status: .ok, body: [UInt8](repeating: 7, count: count))
            answer.reuse = reuse.mark()
            return answer
        }
        let live = try memo.entriesInDistinctPairs(3)
        memo.keep(answer(4_000), for: live[0], now: 0)
        memo.keep(answer(4_000), for: live[1], now: 0)
        #expect(live[0].answer != nil && live[1].answer != nil && memo.bodyBytes == 8_000)
        memo.keep(answer(4_000), for: live[2], now: 0)
        #expect(live[2].answer == nil && memo.bodyBytes == 8_000, "past the budget: not kept")
        memo.keep(answer(1_000), for: live[1], now: 10)
        #expect(memo.bodyBytes == 5_000, "replaced by a smaller one: counted once")
        memo.keep(answer(4_000), for: live[2], now: 10)
        #expect(live[2].answer != nil && memo.bodyBytes == 9_000, "room made")
        memo.dropExpiredAnswers(now: 100)
        #expect(live[0].answer == nil && memo.bodyBytes == 5_000, "expired: let go")

        // Given again often, a 4,000-byte body moves to a page of the arena of its own (where
        // there is an arena), counted as 4,096 bytes; one that would pass the budget stays.
        try #require(HTTPBodyArena.store([UInt8](repeating: 1, count: 4_000)) != nil, "no body arena here")
        for time in 20 ..< 20 + UInt64(HTTPHeadMemo.arenaThreshold) { _ = memo.answer(for: live[2], now: time) }
        #expect(live[2].answer?.file != nil && memo.bodyBytes == 5_096, "moved: counted by its page")
        memo.keep(answer(4_000), for: live[1], now: 30)
        #expect(memo.bodyBytes == 8_096)
        memo.keep(answer(5_000), for: live[0], now: 30)
        #expect(live[0].answer == nil, "past the budget: not kept")
        memo.keep(answer(1_900), for: live[0], now: 30)
        for time in 40 ..< 40 + UInt64(HTTPHeadMemo.arenaThreshold) { _ = memo.answer(for: live[1], now: time) }
        #expect(live[1].answer?.file == nil && memo.bodyBytes == 9_996, "its page would pass the budget: stays in memory")
    }

    /// An answer kept to be given again whose body is bytes in memory is given from memory at
    /// first, then, given again `arenaThreshold` times, from the body arena (sent with
    /// `sendfile`, no copy into the socket): the same bytes, head and length, its `body` empty;
    /// given again often, it is laid out as it goes on the wire. An answer made again whose mark
    /// names the same body takes the arena body at once, and the wire layout stays. A body too
    /// short for a page of its own stays in memory.
    @Test func aBodyKeptToBeGivenAgainGoesFromTheArena() throws {
        #if os(Linux)
        try #require(HTTPBodyArena.store([UInt8](repeating: 1, count: 4_096)) != nil, "no body arena here")
        let memo = HTTPHeadMemo(answerLifetime: 1_000_000, fileAnswers: 0, wireBytes: 1 << 20)
        let reuse = HTTPAnswerReuse()
        let bytes = (0 ..< 10_000).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
        let version = BodyVersion()
        func named(_ version: BodyVersion?) -> HTTPResponse {
            var made = HTTPResponse(status: .ok).prepared(bodyCount: bytes.count).sending(bytes)
            if let version {
                made.reuse = reuse.mark().naming(body: version)
            } else {
                made.reuse = reuse.mark()
            }
            return made
        }
        /// The answer given `times` more times from `start` on (nanoseconds), and the last one.
        func give(_ entry: HTTPHeadMemo.Entry, _ times: Int, from start: UInt64) -> HTTPResponse? {
            var last: HTTPResponse?
            for time in start ..< start + UInt64(times) { last = memo.answer(for: entry, now: time) }
            return last
        }
        let entries = try memo.entriesInDistinctPairs(2)
        let answer = named(version)
        memo.keep(answer, for: entries[0], now: 0)
        for time in 1 ..< UInt64(HTTPHeadMemo.arenaThreshold) {
            let early = memo.answer(for: entries[0], now: time)
            #expect(early?.file == nil && early?.body == bytes, "given again \(time) times: from memory")
        }
        let again = try #require(give(entries[0], 1, from: 100))
        let file = try #require(again.file, "given again from a file")
        #expect(!file.holdsOpenFile, "a body in the arena's shared file")
        #expect(again.body.isEmpty && again.contentLength == bytes.count && again.preparedHead == answer.preparedHead)
        #expect(file.read() == bytes, "the same bytes")
        #expect(memo.bodyBytes == 12_288, "counted by its three pages")
        let laidOut = give(entries[0], HTTPHeadMemo.wireThreshold, from: 200)
        let wire = try #require(entries[0].wire)
        #expect(laidOut?.wire === wire, "given again often: laid out as it goes on the wire")

        // As a connection does: the answer asked for first, found past its time, then the
        // answer made for the request kept.
        #expect(memo.answer(for: entries[0], now: 1_000_000) == nil, "past its time")
        memo.keep(named(version), for: entries[0], now: 1_000_000)
        let same = try #require(give(entries[0], 1, from: 1_000_001))
        let keptOnce = same.file?.owner === file.owner
        #expect(keptOnce, "the same body named: its arena body taken at once")
        let wireStays = entries[0].wire === wire && same.wire === wire
        #expect(wireStays, "its wire layout stays")
        #expect(memo.bodyBytes == 12_288, "counted once")

        #expect(memo.answer(for: entries[0], now: 2_000_000) == nil)
        memo.keep(named(BodyVersion()), for: entries[0], now: 2_000_000)
        let other = give(entries[0], 1, from: 2_000_001)
        #expect(other?.file == nil && other?.body == bytes, "another body named: from memory again")
        #expect(memo.bodyBytes == 10_000)
        _ = give(entries[0], HTTPHeadMemo.arenaThreshold, from: 2_000_002)
        let unnamed = try #require(entries[0].answer?.file, "moved once given again often")
        #expect(memo.answer(for: entries[0], now: 3_000_000) == nil)
        memo.keep(named(nil), for: entries[0], now: 3_000_000)
        let unnamedAgain = entries[0].answer?.file?.owner === unnamed.owner
        #expect(!unnamedAgain && entries[0].answer?.body == bytes, "no body named: from memory again")

        var short = HTTPResponse(status: .ok).prepared(bodyCount: 100).sending([UInt8](repeating: 2, count: 100))
        short.reuse = reuse.mark()
        memo.keep(short, for: entries[1], now: 0)
        let shortAgain = try #require(give(entries[1], HTTPHeadMemo.arenaThreshold, from: 1))
        #expect(shortAgain.file == nil && shortAgain.body.count == 100, "too short for a page: stays in memory")
        #expect(memo.bodyBytes == 10_000 + 100)
        #endif
    }

    @Test func answersThatHoldAFileOpenAreBounded() throws {
        let memo = HTTPHeadMemo(answerLifetime: 100, fileAnswers: 2)
        let reuse = HTTPAnswerReuse()
        var fileAnswer = HTTPResponse(status: .ok)
        fileAnswer.file = HTTPFileBody(descriptor: 0, count: 1, owner: reuse)
        fileAnswer.reuse = reuse.mark()
        var sharedFileAnswer = fileAnswer
        sharedFileAnswer.file = HTTPFileBody(descriptor: 0, count: 1, owner: reuse, shared: true)
        var bytesAnswer = HTTPResponse.text(.ok, "tile")
        bytesAnswer.reuse = reuse.mark()
        let entries = try memo.entriesInDistinctPairs(5)
        for entry in entries[0 ..< 3] { memo.keep(fileAnswer, for: entry, now: 0) }
        #expect(entries.map { $0.answer != nil } == [true, true, false, false, false], "two kept, the third not")
        #expect(memo.fileAnswers == 2)
        memo.keep(bytesAnswer, for: entries[3], now: 0)
        #expect(entries[3].answer != nil, "an answer without a file is kept")
        memo.keep(sharedFileAnswer, for: entries[4], now: 0)
        #expect(entries[4].answer != nil && memo.fileAnswers == 2, "a body in a shared file is kept, not counted")
        memo.keep(fileAnswer, for: entries[1], now: 50)
        #expect(memo.fileAnswers == 2, "kept again in the same entry: counted once")
        memo.dropExpiredAnswers(now: 100)
        #expect(memo.fileAnswers == 1 && entries[0].answer == nil && entries[1].answer != nil)
        memo.keep(fileAnswer, for: entries[2], now: 100)
        #expect(entries[2].answer != nil && memo.fileAnswers == 2, "room made by the expired one")

        // Two heads whose hashes choose entry 2's pair (found by looking up, which changes
        // nothing): the first takes the pair's empty slot, the second the one used less lately,
        // entry 2's, whose answer is let go with it.
        let takers = Array((1000 ..< 1_000_000).lazy.map { "GET /\($0) HTTP/1.1\r\n\r\n" }.filter { head in
            let lookup = Array(head.utf8).withUnsafeBytes { memo.lookUp($0) }
            guard case .unknown(let hash, _) = lookup else { return false }
            return HTTPHeadMemo.pair(hash) == HTTPHeadMemo.pair(entries[2].hash)
        }.prefix(2))
        try #require(takers.count == 2)
        _ = try memo.rememberedEntry(takers[0])
        #expect(entries[2].answer != nil, "the pair's other slot was empty")
        _ = try memo.rememberedEntry(takers[1])
        #expect(entries[2].answer == nil && memo.fileAnswers == 1, "let go with its slot")
        memo.keep(fileAnswer, for: entries[2], now: 100)
        #expect(entries[2].answer == nil, "no longer in its slot: not kept")
        #expect(memo.fileAnswers == 1)

        // A revoke lets the sweep go of what it revoked, before its time.
        reuse.revoke()
        memo.dropExpiredAnswers(now: 101)
        #expect(entries[1].answer == nil && memo.fileAnswers == 0, "revoked before its time (150): let go")
    }
}

/// An object that names a body's bytes (`HTTPAnswerReuse.Mark.naming(body:)`), as a tile's
/// content version does.
private final class BodyVersion: Sendable {}
