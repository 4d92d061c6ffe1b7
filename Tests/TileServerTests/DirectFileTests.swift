// A directory layer sends its tiles straight from their files: on the event loop what the
// kernel's caches hold (sendfile of a version whose ETag is known, or the bytes read to hash it),
// on a worker the rest; the same bytes, ETags and conditional answers as a cached layer. A full
// memory cache sends a tile from its file until it is hot enough to be taken in.

#if os(Linux)
import CLinux
#endif
import Foundation
import TestHTTPClient
import Testing
import TileHTTP
import TileGeometry
import TileProviders
@testable import TileServer
import TestThreads

/// The bytes a file body would send (the tile file that owns its descriptor, read whole).
private func fileBytes(_ body: HTTPFileRegion) throws -> [UInt8]? {
    try (body.owner as? TileFile)?.readVersion().bytes
}

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct DirectFileTests {
    let folder = TemporaryFolder()
    let service: TileService

    init() throws {
        for (z, x, y) in [(0, 0, 0), (1, 0, 0), (1, 1, 0)] {
            folder.write("direct/\(z)/\(x)/\(y).png", Fixtures.worldTile(z, x, y))
        }
        folder.write("direct/2/0/0.png", Array("not a png".utf8))
        service = try Fixtures.service(extraYAML: """
          - name: direct
            source: {type: directory, path: \(folder.path)/direct}
            cache: {memory: false}
        """, folder: folder)
    }

    /// The answer on the loop, asked again while the kernel refuses a read that never waits for
    /// a moment (the last folio of a file just written, locked by writeback), for up to 2 s.
    private func answerOnLoopSoon(_ target: String) async throws -> HTTPResponse? {
        for _ in 0 ..< 200 {
            if let answer = try service.answerOnLoop(target) { return answer }
            try await Task.sleep(for: .milliseconds(10))
        }
        return nil
    }

    /// Waits until the files written by `init` are no longer settling (`FileIdentity.isSettling`):
    /// a file changed a moment ago is sent from bytes read whole, an older one with sendfile.
    private func waitUntilSettled() async throws {
        try await Task.sleep(for: .seconds(FileIdentity.settlingSeconds) + .milliseconds(100))
    }

    /// A tile never seen is answered on the loop from the page cache (read there to hash it),
    /// under the ETag a cached layer gives the same bytes; a file that is not a tile goes to the
    /// workers, which say what is wrong (502).
    @Test func aFileNeverSeenIsReadAndHashedOnTheLoop() async throws {
        let fresh = try #require(try await answerOnLoopSoon("/direct/1/0/0.png"), "just written: in the page cache")
        #expect(fresh.file == nil && Bool(fresh.body == Fixtures.worldTile(1, 0, 0)), "sent from the bytes read to hash it")
        #expect(fresh.note == "bypass")
        #expect(fresh.headers[.eTag] == (try await service.get("/world/1/0/0.png")).headers[.eTag])
        #expect(try service.answerOnLoop("/direct/2/0/0.png") == nil, "not a PNG: the workers say what is wrong")
        #expect(try await service.get("/direct/2/0/0.png").status == .badGateway)
    }

    /// A version whose ETag is known, unchanged for `settlingSeconds`, is sent with sendfile
    /// while the page cache holds all of it; once its pages are dropped the loop hands it to the
    /// workers (a sendfile would wait on the disk), which read it; read back, the loop sends it
    /// again. A process the kernel will not tell (a file it neither owns nor may write) reads it
    /// without waiting and sends the bytes.
    @Test func aKnownSettledFileIsSentFromItsPagesOnlyWhileThePageCacheHoldsThem() async throws {
        try await waitUntilSettled()
        let first = try await service.answerAsSent("/direct/1/1/0.png")
        #expect(first.status == .ok)
        let sent = try #require(try await answerOnLoopSoon("/direct/1/1/0.png"))
        let region = try #require(sent.file, "known and settled: sent with sendfile")
        #expect(try fileBytes(region) == Fixtures.worldTile(1, 1, 0))
        #expect(sent.headers[.eTag] == first.headers[.eTag])
        let file = try #require(region.owner as? TileFile)

        try #require(fsync(file.descriptor) == 0 && posix_fadvise(file.descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0)
        try #require(file.isCachedWhole() == false, "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(try service.answerOnLoop("/direct/1/1/0.png") == nil, "not in the page cache: a worker reads it")
        #expect(try file.readVersion().bytes == Fixtures.worldTile(1, 1, 0))
        #expect(try #require(try service.answerOnLoop("/direct/1/1/0.png"), "read back: in the page cache").file != nil)

        #if os(Linux)
        try #require(getuid() == 0, "acting as another user takes root")
        let previous = clinux_set_thread_fsuid(65534)
        let asNobody = Result { try service.answerOnLoop("/direct/1/1/0.png") }
        _ = clinux_set_thread_fsuid(previous)
        let read = try #require(try asNobody.get(), "read without waiting on the loop")
        #expect(read.file == nil, "not sent from the file: the kernel would not say whether it is in the page cache")
        #expect(Bool(read.body == Fixtures.worldTile(1, 1, 0)))
        #expect(read.headers[.eTag] == first.headers[.eTag])
        #endif
    }

    /// A full memory cache sends a tile asked for like the others from its file (it does not
    /// churn), and takes it in once it is asked for far more often than the tile it would evict.
    @Test func aHotTileDisplacesAColdOneInAFullMemoryCache() async throws {
        let pyramid = TemporaryFolder()
        var paths: [String] = []
        for z in 0 ... 3 {
            for x in 0 ..< 1 << z {
                for y in 0 ..< 1 << z {
                    pyramid.write("d/\(z)/\(x)/\(y).png", Fixtures.worldTile(z, x, y))
                    paths.append("/d/\(z)/\(x)/\(y).png")
                }
            }
        }
        // 3 MB for tiles: less than the 5 MB pyramid.
        let service = try Fixtures.service(extraYAML: """
          - name: d
            source: {type: directory, path: \(pyramid.path)/d}
        """, server: ", cache: {memoryBytes: 4000000}", folder: pyramid)
        for path in paths { _ = try await service.answerAsSent(path) }
        var cold: String?
        for path in paths where try await service.answerAsSent(path).note == "miss" {
            cold = path
            break
        }
        let path = try #require(cold, "some tile was not kept")
        var kept = false
        for _ in 0 ..< 20 where !kept {
            kept = try await service.answerAsSent(path).note == "hit"
        }
        #expect(kept)
    }

    @Test func conditionalRequestsGet304WithoutABody() async throws {
        let etag = try #require(try await service.answerAsSent("/direct/0/0/0.png").headers[.eTag])
        let again = try await service.answerAsSent("/direct/0/0/0.png", headers: [.ifNoneMatch: etag])
        #expect(again.status == .notModified)
        #expect(again.file == nil)
        #expect(again.contentLength == 0)
    }

    @Test func missingFilesAndBrokenFilesGetTheOrdinaryAnswers() async throws {
        #expect(try await service.get("/direct/1/1/1.png").status == .notFound)
        #expect(try await answerOnLoopSoon("/direct/1/1/1.png")?.status == .notFound,
                "a name the kernel knows is absent: no tile, told on the loop")
        let broken = try await service.get("/direct/2/0/0.png")
        #expect(broken.status == .badGateway)
        #expect(broken.file == nil)
    }

    @Test func retinaTilesAreStillDerived() async throws {
        let retina = try await service.get("/direct/0/0/0@2x.png")
        #expect(retina.status == .ok)
        #expect(retina.file == nil)
        #expect(retina.body.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }

    @Test func aLiveServerSendsTheFileBytes() async throws {
        try await waitUntilSettled()
        let live = try LiveServer(responder: service)
        let client = try RawHTTPClient(port: live.port)
        for _ in 0 ..< 2 {  // the second time a version with a known ETag: sent with sendfile
            for (z, x, y) in [(0, 0, 0), (1, 1, 0), (1, 0, 0)] {
                let answer = try #require(client.request("/direct/\(z)/\(x)/\(y).png"))
                #expect(answer.status == 200)
                #expect(Bool(answer.body == Fixtures.worldTile(z, x, y)), "the file's bytes")
                #expect(answer.header("Content-Length") == String(Fixtures.worldTile(z, x, y).count))
            }
        }
        let head = try #require(client.request("/direct/1/1/0.png", method: "HEAD"))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(Fixtures.worldTile(1, 1, 0).count))
        await live.stop()
    }
}

/// A directory layer with a memory cache keeps the tiles that fit and sends the rest from their
/// files instead of evicting cached tiles for them.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct FileAdmissionTests {
    let folder = TemporaryFolder()

    private func service(memoryBytes: Int) throws -> TileService {
        try Fixtures.service(server: ", cache: {memoryBytes: \(memoryBytes)}", folder: folder)
    }

    @Test func aTileThatFitsIsCachedAndThenHit() async throws {
        let service = try service(memoryBytes: 64 << 20)
        let first = try await service.get("/world/1/0/0.png")
        #expect(first.note == "miss")
        #expect(first.body == Fixtures.worldTile(1, 0, 0))
        let second = try #require(try service.answerOnLoop("/world/1/0/0.png"), "a hit is answered on the loop")
        #expect(second.note == "hit")
        #if os(Linux)
        // The cached body lives in the body arena's memory file: a hit is sent with sendfile.
        #expect(second.file != nil && second.body.isEmpty)
        #endif
        #expect(second.sentBody == Fixtures.worldTile(1, 0, 0))
        #expect(service.pipeline.cache.statistics.count == 1)
    }

    @Test func aTileThatWouldEvictIsSentFromItsFileAndNotStored() async throws {
        // 16 KiB over 16 shards: no world tile fits without evicting.
        let service = try service(memoryBytes: 16 << 10)
        for _ in 0 ..< 2 {
            let answer = try await service.answerAsSent("/world/1/1/0.png")
            #expect(answer.note == "miss")
            #expect(answer.sentBody == Fixtures.worldTile(1, 1, 0))
        }
        #expect(service.pipeline.cache.statistics.count == 0)
        let etag = try #require(try await service.answerAsSent("/world/1/1/0.png").headers[.eTag])
        let cachedService = try self.service(memoryBytes: 64 << 20)
        #expect(try await cachedService.get("/world/1/1/0.png").headers[.eTag] == etag)
    }
}
