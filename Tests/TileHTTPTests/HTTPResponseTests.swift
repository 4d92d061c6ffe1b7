import Testing
@testable import TileHTTP

/// A response is a value: its fields and what one answer carries (file, lent body, reuse mark,
/// wire layout) sit in shared boxes, and a change to one copy must never show in another.
@Suite struct HTTPResponseTests {
    private final class Owner: Sendable {}

    private static func file(count: Int) -> HTTPFileBody {
        HTTPFileBody(descriptor: 7, count: count, owner: Owner())
    }

    /// A stored answer that already carries a box, as a cached tile's does (its file in the
    /// memory cache's arena), with labels.
    private static func storedAnswer() -> HTTPResponse {
        var stored = HTTPResponse(status: .ok, headers: [.contentType: "image/png"])
            .prepared(bodyCount: 5).sendingFile(file(count: 5))
        stored.route = "tile"
        stored.note = "hit"
        return stored
    }

    @Test func aMarkGivenToACopyIsNotSeenByTheStoredAnswerOrAnotherCopy() {
        let stored = Self.storedAnswer()
        var marked = stored
        marked.reuse = HTTPAnswerReuse().mark()
        var relabelled = stored
        relabelled.note = "miss"

        #expect(stored.reuse == nil && stored.note == "hit")
        #expect(marked.reuse != nil && marked.note == "hit")
        #expect(relabelled.reuse == nil && relabelled.note == "miss")
        #expect(marked.file?.owner === stored.file?.owner && relabelled.file?.owner === stored.file?.owner)
        #expect(marked.preparedHead == stored.preparedHead)
    }

    @Test func aFileReplacedOrClearedInACopyStaysInTheStoredAnswer() {
        let stored = Self.storedAnswer()
        var replaced = stored
        replaced.file = Self.file(count: 5)
        var cleared = stored
        cleared.file = nil
        cleared.body = Array("hello".utf8)

        #expect(stored.file?.count == 5 && stored.body.isEmpty)
        #expect(replaced.file?.owner !== stored.file?.owner)
        #expect(cleared.file == nil && cleared.body.count == 5 && cleared.contentLength == 5)
    }

    @Test func clearingWhatAnAnswerDoesNotCarryMakesNoBox() {
        var response = HTTPResponse.text(.notFound, "no such tile")
        response.file = nil
        response.reuse = nil
        response.lent = nil
        response.wire = nil
        #expect(!response.carriesAttachments)
        #expect(response.contentLength == "no such tile\n".utf8.count)

        response.reuse = HTTPAnswerReuse().mark()
        #expect(response.carriesAttachments)
        response.reuse = nil
        #expect(response.reuse == nil)
    }

    @Test func theContentLengthIsTheFilesWhenOneIsAttached() {
        let response = HTTPResponse(status: .ok).prepared(bodyCount: 4096).sendingFile(Self.file(count: 4096))
        #expect(response.contentLength == 4096)
        #expect(response.body.isEmpty)
    }
}
