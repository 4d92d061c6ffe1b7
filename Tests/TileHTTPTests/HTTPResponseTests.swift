import Testing
@testable import TileHTTP

/// A response is a value: its fields and what one answer carries (file, note, route, mark) sit
/// in shared boxes, and a change to one copy must never show in another.
@Suite struct HTTPResponseTests {
    private final class Owner: Sendable {}

    private static func file(count: Int) -> HTTPFileBody {
        HTTPFileBody(descriptor: 7, count: count, owner: Owner())
    }

    @Test func whatOneCopyCarriesIsNotSeenByTheAnswerItWasMadeFromOrByOtherCopies() {
        let prepared = HTTPResponse(status: .ok, headers: [.contentType: "image/png"])
            .prepared(bodyCount: 5)
        var first = prepared.sendingFile(Self.file(count: 5))
        first.note = "miss"
        first.route = "tile"
        var second = first
        second.note = "bypass"
        second.file = nil
        second.body = Array("hello".utf8)

        #expect(prepared.file == nil && prepared.note == nil && prepared.route == nil)
        #expect(first.file?.count == 5 && first.note == "miss" && first.route == "tile" && first.body.isEmpty)
        #expect(second.file == nil && second.note == "bypass" && second.route == "tile" && second.body.count == 5)
        #expect(first.preparedHead == prepared.preparedHead && second.preparedHead == prepared.preparedHead)
    }

    @Test func aChangeToAStoredAnswerLeavesTheCopyHandedOutAsItWas() {
        var stored = HTTPResponse(status: .ok).prepared(bodyCount: 3).sendingFile(Self.file(count: 3))
        stored.note = "hit"
        let handedOut = stored
        stored.note = "hit,stale"
        stored.file = Self.file(count: 3)

        #expect(handedOut.note == "hit")
        #expect(stored.note == "hit,stale")
        #expect(handedOut.file?.owner !== stored.file?.owner)
    }

    @Test func clearingWhatANewAnswerDoesNotCarryLeavesItCarryingNothing() {
        var response = HTTPResponse.text(.notFound, "no such tile")
        response.file = nil
        response.reuse = nil
        response.note = nil
        #expect(response.file == nil && response.reuse == nil && response.note == nil && response.lent == nil)
        #expect(response.contentLength == "no such tile\n".utf8.count)

        response.note = "miss"
        response.note = nil
        #expect(response.note == nil)
    }

    @Test func theContentLengthIsTheFilesWhenOneIsAttached() {
        let response = HTTPResponse(status: .ok).prepared(bodyCount: 4096).sendingFile(Self.file(count: 4096))
        #expect(response.contentLength == 4096)
        #expect(response.body.isEmpty)
    }
}
