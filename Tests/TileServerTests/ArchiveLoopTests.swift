// An MBTiles layer without a memory cache is answered on the event loop from the page cache,
// with the bytes, ETag and conditional answers the workers give, each tile version hashed once.

#if os(Linux)
import Foundation
import Testing
import Sockets
import TileHTTP
@testable import TileServer

@Suite(.timeLimit(.minutes(1))) struct ArchiveLoopTests {
    let folder = TemporaryFolder()
    let service: TileService

    init() throws {
        // A fresh copy: just written, so in the page cache.
        folder.write("bm.mbtiles", Array(try Data(contentsOf: URL(fileURLWithPath: Fixtures.packageRoot + "/tiles/bluemarble.mbtiles"))))
        service = try Fixtures.service(extraYAML: """
          - name: mb
            source: {type: mbtiles, path: \(folder.path)/bm.mbtiles}
            cache: {memory: false}
          - name: mbc
            source: {type: mbtiles, path: \(folder.path)/bm.mbtiles}
        """, folder: folder)
    }

    /// The loop's answer. If the machine paged the file out of the page cache meanwhile (these
    /// machines page out idle memory), a request through the workers reads it back in first.
    private func onLoop(_ path: String, headers: HTTPHeaders = [:]) async throws -> HTTPResponse? {
        if let answer = try service.answerOnLoop(path, headers: headers) { return answer }
        _ = try await service.get(path)
        return try service.answerOnLoop(path, headers: headers)
    }

    @Test func anUncachedTileIsReadOnTheLoopUnderTheWorkersETag() async throws {
        let loop = try #require(try await onLoop("/mb/1/1/0.png"), "in the page cache: answered on the loop")
        let workers = try await service.get("/mbc/1/1/0.png")
        #expect(loop.status == .ok)
        #expect(loop.note == "bypass")
        #expect(!loop.body.isEmpty)
        #expect(loop.body == workers.sentBody)
        #expect(loop.headers[.eTag] == workers.headers[.eTag])
        #expect(loop.headers[.lastModified] == workers.headers[.lastModified])
        #expect(loop.headers[.contentType] == "image/png")
        #expect(loop.preparedHead != nil, "an unconditional answer's head is encoded once per tile version")

        // A version is a reader's view of the file: one reader per event loop (this test may
        // change threads between requests, each thread starting at its own reader).
        let readers = System.coreCount
        for _ in 0 ..< 10 {
            let again = try #require(try await onLoop("/mb/1/1/0.png"))
            #expect(again.body == loop.body)
            #expect(again.preparedHead == loop.preparedHead)
        }
        let versions = service.pipeline.archiveFingerprints.count
        #expect((1 ... readers).contains(versions), "one tile, hashed once per reader at most, not once per request")
        _ = try await onLoop("/mb/1/0/0.png")
        #expect(service.pipeline.archiveFingerprints.count > versions, "another tile, hashed")
    }

    @Test func aConditionalRequestIsAnswered304OnTheLoop() async throws {
        let first = try #require(try await onLoop("/mb/0/0/0.png"))
        let etag = try #require(first.headers[.eTag])
        let fresh = try #require(try await onLoop("/mb/0/0/0.png", headers: [.ifNoneMatch: etag]))
        #expect(fresh.status == .notModified)
        #expect(fresh.body.isEmpty)
        let stale = try #require(try await onLoop("/mb/0/0/0.png", headers: [.ifNoneMatch: "\"other\""]))
        #expect(stale.status == .ok)
        #expect(stale.body == first.body)
    }

    /// A layer with a memory cache reads a miss on the workers, which keep it; the loop answers its hits.
    @Test func aCachedLayersMissGoesToTheWorkers() async throws {
        #expect(try service.answerOnLoop("/mbc/2/1/1.png") == nil)
        let read = try await service.get("/mbc/2/1/1.png")
        #expect(read.status == .ok)
        #expect(try service.answerOnLoop("/mbc/2/1/1.png")?.note == "hit")
    }
}
#endif
