import Testing
@testable import TileHTTP

/// A response is a value: its fields sit in one shared box, and a change to one copy must never
/// show in another; a body is bytes or a file region, and its length is the Content-Length.
@Suite struct HTTPResponseTests {
    private final class Owner: Sendable {}

    private static func file(count: Int) -> HTTPFileRegion {
        HTTPFileRegion(descriptor: -1, count: count, owner: Owner())
    }

    /// A stored answer with its head prepared once and a file attached, as a cached tile's is.
    private static func storedAnswer() -> HTTPResponse {
        var response = HTTPResponse(status: .ok).prepared(bodyCount: 5).sending(.file(file(count: 5)))
        response.note = "hit"
        return response
    }

    @Test func aChangeToACopyIsNotSeenByTheStoredAnswerOrAnotherCopy() {
        let stored = Self.storedAnswer()
        var relabelled = stored
        relabelled.note = "miss"
        var replaced = stored
        replaced.content = .file(Self.file(count: 5))
        var inMemory = stored
        inMemory.body = [1, 2, 3, 4, 5]
        #expect(stored.note == "hit" && relabelled.note == "miss")
        #expect(relabelled.file.map { ObjectIdentifier($0.owner) } == stored.file.map { ObjectIdentifier($0.owner) })
        #expect(replaced.file.map { ObjectIdentifier($0.owner) } != stored.file.map { ObjectIdentifier($0.owner) })
        #expect(stored.file?.count == 5 && stored.body.isEmpty)
        #expect(inMemory.file == nil && inMemory.body.count == 5 && inMemory.contentLength == 5)
    }

    @Test func theContentLengthIsTheBodysWhateverItIs() {
        let file = HTTPResponse(status: .ok).prepared(bodyCount: 4096).sending(.file(Self.file(count: 4096)))
        #expect(file.contentLength == 4096)
        #expect(String(decoding: file.preparedHead ?? [], as: UTF8.self).contains("Content-Length: 4096\r\n"))
        let bytes = HTTPResponse(status: .ok, body: [1, 2, 3]).prepared()
        #expect(bytes.contentLength == 3)
        #expect(String(decoding: bytes.preparedHead ?? [], as: UTF8.self).contains("Content-Length: 3\r\n"))
        #expect(HTTPBody.empty.count == 0)
    }
}
