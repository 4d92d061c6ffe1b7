// A directory layer with no cache sends its tiles straight from their files (sendfile), with
// the same bytes, ETags and conditional answers as a cached layer, and sees replaced files; a
// full memory cache sends a tile from its file until it is hot enough to be taken in.

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
private func fileBytes(_ body: HTTPFileBody) throws -> [UInt8]? {
    try (body.owner as? TileFile)?.readAll()
}

@Suite(.ownThreads) struct DirectFileTests {
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
          - name: fresh
            source: {type: directory, path: \(folder.path)/direct}
            cache: {memory: false, openFileSeconds: 0}
          - name: strict
            source: {type: directory, path: \(folder.path)/direct}
            cache: {memory: false, residencySeconds: 0}
          - name: trusting
            source: {type: directory, path: \(folder.path)/direct}
            cache: {memory: false, openFileSeconds: 60, residencySeconds: 60}
        """, folder: folder)
    }

    @Test func tilesAreSentFromTheirFilesWithTheCachedLayersETag() async throws {
        let opened = ContinuousClock.now
        let raw = try await service.answerAsSent("/direct/1/1/0.png")
        #expect(raw.status == .ok)
        #expect(raw.body.isEmpty)
        let file = try #require(raw.file)
        #expect(file.count == Fixtures.worldTile(1, 1, 0).count)
        #expect(try fileBytes(file) == Fixtures.worldTile(1, 1, 0))
        #expect(raw.note == "bypass")
        // Kept open with a known fingerprint, the next request is answered on the loop (while
        // the open file is valid: a loaded machine may take longer than that).
        let hot = try service.answerOnLoop("/direct/1/1/0.png")
        if ContinuousClock.now - opened < .milliseconds(900) {
            #expect(hot?.file != nil)
            #expect(hot?.headers[.eTag] == raw.headers[.eTag])
        }

        let cached = try await service.get("/world/1/1/0.png")
        #expect(cached.file == nil)
        #expect(raw.headers[.eTag] == cached.headers[.eTag])
        #expect(raw.headers[.lastModified] != nil)
        #expect(raw.headers[.cacheControl] == cached.headers[.cacheControl])
    }

    #if os(Linux)
    /// A tile never seen is answered on the loop when the kernel's caches hold its path (`openat2`
    /// with RESOLVE_CACHED) and its bytes (read to hash them with `preadv2` and RWF_NOWAIT), under
    /// the ETag the workers give it; a file that is not a whole tile goes to the workers (as one
    /// whose bytes would need the disk does: `FileOpenWithoutWaitingTests`).
    @Test func aFileNeverSeenIsHashedOnTheLoopFromThePageCache() async throws {
        // The kernel may refuse a read that never waits for a moment, even of pages it holds (the
        // last folio of a file just written, not wholly up to date, locked by writeback): the
        // loop then leaves the request to the workers. Asked again, for up to 2 s.
        var answered = try service.answerOnLoop("/direct/1/0/0.png")
        for _ in 0 ..< 200 where answered == nil {
            try await Task.sleep(for: .milliseconds(10))
            answered = try service.answerOnLoop("/direct/1/0/0.png")
        }
        let fresh = try #require(answered, "just written: in the page cache")
        #expect(try fileBytes(try #require(fresh.file)) == Fixtures.worldTile(1, 0, 0))
        #expect(fresh.reuse?.isPinned == false, "a file may be replaced: given again for reuseSeconds only")
        #expect(fresh.headers[.eTag] == (try await service.get("/world/1/0/0.png")).headers[.eTag])
        #expect(try service.answerOnLoop("/direct/2/0/0.png") == nil, "not a PNG: the workers say what is wrong")
    }

    /// The loop sends a tile file only while the page cache holds all of it: one whose pages were
    /// dropped goes to the workers (a sendfile would wait on the disk), and is sent on the loop
    /// again once read back; one the kernel will not tell this process about (a file it neither
    /// owns nor may write) is read without waiting, and its bytes are sent. (A layer that asks
    /// before every send: `cache.residencySeconds: 0`.)
    @Test func theLoopSendsAFileOnlyWhileThePageCacheHoldsIt() async throws {
        let first = try await service.answerAsSent("/strict/1/1/0.png")
        #expect(first.file != nil)
        let layer = try #require(service.state.layers["strict"])
        let key = TileKey(layer: "strict", tile: TileCoordinate(z: 1, x: 1, y: 0), scale: 1)
        let kept = try #require(layer.openFiles?.kept(for: key), "kept open")
        // It carries its fingerprint: the loop's next answer looks up nothing else.
        #expect(kept.fingerprint?.etag == first.headers[.eTag])
        try #require(fsync(kept.file.descriptor) == 0 && posix_fadvise(kept.file.descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0)
        try #require(kept.file.isCachedWhole() == false, "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(try service.answerOnLoop("/strict/1/1/0.png") == nil, "not in the page cache: the workers send it")
        #expect(try kept.file.readAll() == Fixtures.worldTile(1, 1, 0))
        let cached = try #require(try service.answerOnLoop("/strict/1/1/0.png"), "read back: in the page cache")
        #expect(cached.file != nil)

        try #require(getuid() == 0, "acting as another user takes root")
        let previous = clinux_set_thread_fsuid(65534)
        let asNobody = Result { try service.answerOnLoop("/strict/1/1/0.png") }
        _ = clinux_set_thread_fsuid(previous)
        let read = try #require(try asNobody.get(), "read without waiting on the loop")
        #expect(read.file == nil, "not sent from the file: the kernel would not say whether it is in the page cache")
        #expect(Bool(read.body == Fixtures.worldTile(1, 1, 0)))
        #expect(read.headers[.eTag] == first.headers[.eTag])
    }

    /// A file the loop found whole in the page cache is taken to stay there for the layer's
    /// `cache.residencySeconds`: its pages dropped meanwhile, the loop still sends it (not asking
    /// the kernel again), where a layer that asks each time hands it to the workers.
    @Test func aFileFoundInThePageCacheIsSentForTheResidencySecondsWithoutAsking() async throws {
        _ = try await service.answerAsSent("/trusting/1/1/0.png")
        let found = try #require(try service.answerOnLoop("/trusting/1/1/0.png"), "in the page cache: sent on the loop")
        #expect(found.file != nil)
        let layer = try #require(service.state.layers["trusting"])
        #expect(layer.openFiles?.residency == 60_000_000_000)
        let key = TileKey(layer: "trusting", tile: TileCoordinate(z: 1, x: 1, y: 0), scale: 1)
        let kept = try #require(layer.openFiles?.kept(for: key), "kept open")
        try #require(fsync(kept.file.descriptor) == 0 && posix_fadvise(kept.file.descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0)
        try #require(kept.file.isCachedWhole() == false, "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        let trusted = try #require(try service.answerOnLoop("/trusting/1/1/0.png"), "found whole a moment ago: not asked again")
        #expect(trusted.file.map { ($0.owner as? TileFile) === kept.file } == true)
        #expect(try trusted.file.flatMap(fileBytes) == Fixtures.worldTile(1, 1, 0))
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
        for path in paths where try service.answerOnLoop(path)?.note == "miss" {
            cold = path
            break
        }
        let path = try #require(cold, "some tile was not kept")
        #expect(try service.answerOnLoop(path)?.note == "miss", "asked for about as often as the others: sent from its file")
        var kept = false
        for _ in 0 ..< 20 where !kept {
            if let answer = try service.answerOnLoop(path) {
                kept = answer.note == "hit"
            } else {
                #expect(try await service.answerAsSent(path).note == "miss", "admitted: the workers read and keep it")
            }
        }
        #expect(kept)
    }

    /// The workers' path: a file read (possibly from the disk) and hashed once per version.
    @Test func theWorkersHashAFileAndRememberItsVersion() throws {
        let layer = try #require(service.state.layers["direct"])
        let files = try #require(layer.fileSource)
        let file = try #require(try files.tileFile(for: TileRequest(tile: TileCoordinate(z: 1, x: 1, y: 0))))
        let fingerprints = service.pipeline.fileFingerprints
        #expect(fingerprints.known(file) == nil)
        let made = try #require(fingerprints.fingerprint(of: file, format: .png))
        #expect(made.etag == ContentHash.etag(of: Fixtures.worldTile(1, 1, 0)))
        #expect(fingerprints.known(file) === made)
        let broken = try #require(try files.tileFile(for: TileRequest(tile: TileCoordinate(z: 2, x: 0, y: 0))))
        let versions = fingerprints.count
        #expect(fingerprints.fingerprint(of: broken, format: .png) == nil, "not a PNG")
        #expect(fingerprints.count == versions + 1, "its version is remembered as not a tile")
        #expect(fingerprints.fingerprintWithoutWaiting(of: broken, format: .png) == nil)
        #expect(fingerprints.known(broken) == nil)
        #expect(fingerprints.count == versions + 1)
    }

    /// Past its open file's validity a tile seen before is opened on the loop from the kernel's
    /// caches (`openat2` with RESOLVE_CACHED, no disk wait), not handed to the workers again;
    /// found unchanged, the file kept stays kept, with its fingerprint (`OpenTileFiles.keep`).
    @Test func aFileSeenBeforeIsReopenedOnTheLoopFromTheKernelsCaches() async throws {
        let first = try await service.answerAsSent("/direct/1/1/0.png")
        let key = TileKey(layer: "direct", tile: TileCoordinate(z: 1, x: 1, y: 0), scale: 1)
        let layer = try #require(service.state.layers["direct"])
        let kept = try #require(layer.openFiles?.kept(for: key))
        try await Task.sleep(for: .seconds(OpenTileFiles.defaultValidity + 0.1))
        #expect(layer.openFiles?.count == 1)
        // The kernel may refuse for a moment (a lookup that met a rename elsewhere on the
        // machine, pages being written back): asked again, for up to 2 s, with no worker between.
        var answered = try service.answerOnLoop("/direct/1/1/0.png")
        for _ in 0 ..< 200 where answered == nil {
            try await Task.sleep(for: .milliseconds(10))
            answered = try service.answerOnLoop("/direct/1/1/0.png")
        }
        let reopened = try #require(answered, "a cached path opens without a worker (\(whyNotOnLoop(key)))")
        #expect(reopened.headers[.eTag] == first.headers[.eTag])
        let file = try #require(reopened.file)
        #expect(try fileBytes(file) == Fixtures.worldTile(1, 1, 0))
        #expect((file.owner as? TileFile) === kept.file, "the unchanged file kept is sent")
        let renewed = try #require(layer.openFiles?.kept(for: key), "kept for another validity")
        #expect(renewed.file === kept.file)
        #expect(renewed.fingerprint != nil && renewed.fingerprint === kept.fingerprint)
    }
    #endif

    /// What keeps the loop from answering `key` from its file, for a failure's message.
    private func whyNotOnLoop(_ key: TileKey) -> String {
        guard let layer = service.state.layers[key.layer], let openFiles = layer.openFiles else { return "no open files" }
        if openFiles.kept(for: key) != nil { return "a file is kept" }
        errno = 0
        guard let file = layer.fileSource?.tileFileWithoutWaiting(for: TileRequest(tile: key.tile)) else {
            return "not opened from the kernel's caches (errno \(errno))"
        }
        let known = service.pipeline.fileFingerprints.known(file) != nil
        return "opened; fingerprint known: \(known); whole in the page cache: \(String(describing: file.isCachedWhole()))"
    }

    @Test func conditionalRequestsGet304WithoutABody() async throws {
        let etag = try #require(try await service.answerAsSent("/direct/0/0/0.png").headers[.eTag])
        let again = try await service.answerAsSent("/direct/0/0/0.png", headers: [.ifNoneMatch: etag])
        #expect(again.status == .notModified)
        #expect(again.file == nil)
        #expect(again.contentLength == 0)
    }

    private func replace(_ relative: String, with bytes: [UInt8]) {
        let temporary = folder.path + "/replacement.png"
        #expect(FileManager.default.createFile(atPath: temporary, contents: Data(bytes)))
        #expect(rename(temporary, folder.path + "/" + relative) == 0)
    }

    /// A tile's file stays open for `OpenTileFiles.defaultValidity` (1 s), like nginx's
    /// open_file_cache: a replaced file is served from the next opening on.
    @Test func aReplacedFileIsServedWithItsNewETagOnceTheOpenFileExpires() async throws {
        let opened = ContinuousClock.now
        let before = try await service.get("/direct/1/0/0.png")
        #expect(Bool(before.body == Fixtures.worldTile(1, 0, 0)))
        let replacement = Fixtures.worldTile(2, 1, 1)
        replace("direct/1/0/0.png", with: replacement)
        let soon = try await service.get("/direct/1/0/0.png")
        // Only while the open file is still valid (a loaded machine may take longer than that).
        if ContinuousClock.now - opened < .milliseconds(900) {
            #expect(Bool(soon.body == Fixtures.worldTile(1, 0, 0)), "the open file is the old one, whole")
            #expect(soon.headers[.eTag] == before.headers[.eTag])
        }
        try await Task.sleep(for: .seconds(OpenTileFiles.defaultValidity + 0.1))
        let after = try await service.get("/direct/1/0/0.png")
        #expect(Bool(after.body == replacement))
        #expect(after.headers[.eTag] != before.headers[.eTag])
        #expect(after.headers[.eTag] == (try await service.get("/world/2/1/1.png")).headers[.eTag])
    }

    /// `cache.openFileSeconds: 0`: the path is opened for each request, so a replaced file is
    /// served from the next request on.
    @Test func aLayerThatKeepsNoOpenFileServesAReplacedFileAtOnce() async throws {
        let before = try await service.get("/fresh/1/0/0.png")
        #expect(Bool(before.body == Fixtures.worldTile(1, 0, 0)))
        let replacement = Fixtures.worldTile(2, 1, 1)
        replace("direct/1/0/0.png", with: replacement)
        let after = try await service.get("/fresh/1/0/0.png")
        #expect(Bool(after.body == replacement))
        #expect(after.headers[.eTag] != before.headers[.eTag])
    }

    @Test func clearingTheLayersCacheClosesItsOpenFiles() async throws {
        _ = try await service.get("/direct/1/1/0.png")
        let layer = try #require(service.state.layers["direct"])
        #expect(layer.openFiles?.count == 1)
        replace("direct/1/1/0.png", with: Fixtures.worldTile(0, 0, 0))
        _ = await service.clearCache(layer: "direct")
        #expect(layer.openFiles?.count == 0)
        #expect(try await service.get("/direct/1/1/0.png").body == Fixtures.worldTile(0, 0, 0))
    }

    @Test func missingFilesAndBrokenFilesGetTheOrdinaryAnswers() async throws {
        #expect(try await service.get("/direct/1/1/1.png").status == .notFound)
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
        let live = try LiveServer(responder: service)
        let client = try RawHTTPClient(port: live.port)
        for (z, x, y) in [(0, 0, 0), (1, 1, 0), (1, 0, 0)] {
            let answer = try #require(client.request("/direct/\(z)/\(x)/\(y).png"))
            #expect(answer.status == 200)
            #expect(Bool(answer.body == Fixtures.worldTile(z, x, y)), "the file's bytes")
            #expect(answer.header("Content-Length") == String(Fixtures.worldTile(z, x, y).count))
        }
        let head = try #require(client.request("/direct/1/1/0.png", method: "HEAD"))
        #expect(head.status == 200)
        #expect(head.body.isEmpty)
        #expect(head.header("Content-Length") == String(Fixtures.worldTile(1, 1, 0).count))
        // The head of a file version's 200 is encoded once: a replacement of another size gets
        // its own head (Content-Length, ETag) once the open file expires.
        let before = try #require(client.request("/direct/1/1/0.png"))
        let replacement = Fixtures.worldTile(2, 1, 1)
        #expect(replacement.count != Fixtures.worldTile(1, 1, 0).count)
        replace("direct/1/1/0.png", with: replacement)
        try await Task.sleep(for: .seconds(OpenTileFiles.defaultValidity + 0.1))
        let after = try #require(client.request("/direct/1/1/0.png"))
        #expect(after.status == 200)
        #expect(Bool(after.body == replacement), "the replacement's bytes")
        #expect(after.header("Content-Length") == String(replacement.count))
        #expect(after.header("ETag") != before.header("ETag"))
        await live.stop()
    }

    /// `cache.openFileSeconds` where no file is kept open (not a directory, a disk tier, vector
    /// tiles) is a configuration error naming the key, not a setting taken in silence.
    @Test func openFileSecondsIsRefusedWhereItHasNoEffect() throws {
        let direct = "{type: directory, path: \(folder.path)/direct}"
        let kept = try Fixtures.service(extraYAML: """
          - {name: kept, source: \(direct), cache: {memory: false, openFileSeconds: 5}}
        """, folder: folder)
        #expect(kept.state.layers["kept"]?.openFiles?.validity == 5)
        expectNoEffect(of: "cache.openFileSeconds", on: [
            ("{name: b, source: {type: debug}, cache: {openFileSeconds: 5}}", "not a directory"),
            ("{name: b, source: \(direct), cache: {disk: \(folder.path)/disk, openFileSeconds: 5}}", "a disk tier"),
            ("{name: b, source: \(direct), format: pbf, cache: {openFileSeconds: 5}}", "vector tiles"),
        ])
    }

    /// Each of `layers` (with why), the service's second layer, is a configuration error at
    /// `key` saying it has no effect there.
    private func expectNoEffect(of key: String, on layers: [(yaml: String, why: String)]) {
        for (layer, why) in layers {
            let refused = #expect(throws: ConfigurationError.self, "\(why)") {
                try Fixtures.service(extraYAML: "  - \(layer)", folder: folder)
            }
            #expect(refused?.key == "layers[1].\(key)", "\(why)")
            #expect(refused?.message.contains("no effect") == true, "\(why)")
        }
    }

    /// `cache.residencySeconds` is taken by a folder layer sent from its files and by an MBTiles
    /// layer the event loops read (one without a disk tier, with a memory cache or not), and
    /// handed to what asks the page cache; elsewhere (a generated source, a disk tier) it is a
    /// configuration error naming the key.
    @Test func residencySecondsIsTakenWhereTheLoopsAskThePageCacheAndRefusedElsewhere() throws {
        let direct = "{type: directory, path: \(folder.path)/direct}"
        let mbtiles = "{type: mbtiles, path: \(Fixtures.packageRoot)/tiles/bluemarble.mbtiles}"
        let taken = try Fixtures.service(extraYAML: """
          - {name: files, source: \(direct), cache: {memory: false, residencySeconds: 5}}
          - {name: archive, source: \(mbtiles), cache: {memory: false, residencySeconds: 0.5}}
          - {name: cached, source: \(mbtiles), cache: {residencySeconds: 2}}
        """, folder: folder)
        #expect(taken.state.layers["files"]?.openFiles?.residency == 5_000_000_000)
        let archive = try #require(taken.state.layers["archive"]?.archiveWithoutWaiting as? MBTilesTileProvider)
        #expect(archive.residency == .milliseconds(500))
        let cached = try #require(taken.state.layers["cached"]?.archiveWithoutWaiting as? MBTilesTileProvider)
        #expect(cached.residency == .seconds(2))
        let byDefault = try #require(service.state.layers["direct"])
        #expect(byDefault.openFiles?.residency == UInt64(LayerCacheSettings.defaultResidencySeconds * 1e9))
        expectNoEffect(of: "cache.residencySeconds", on: [
            ("{name: b, source: \(mbtiles), cache: {disk: \(folder.path)/disk, residencySeconds: 1}}", "an MBTiles layer with a disk tier"),
            ("{name: b, source: {type: debug}, cache: {memory: false, residencySeconds: 1}}", "not a file source"),
            ("{name: b, source: \(direct), cache: {disk: \(folder.path)/disk, residencySeconds: 1}}", "a disk tier"),
        ])
    }

    /// An event loop sends a tile file's answer again to the same request head without asking
    /// the service (`HTTPHeadMemo`), the answer keeping its file open: each counts as the
    /// provider call it repeats, and a file replaced on disk is served from the answer past the
    /// open file's validity (answers live a minute here: only a revoke ends them), until a
    /// clear-cache; then the new file is.
    @Test func aFileAnswerIsGivenAgainUntilAClear() async throws {
        let live = try LiveServer(responder: service) { $0.reusedAnswerLifetime = 60 }
        let client = try RawHTTPClient(port: live.port)
        let original = Fixtures.worldTile(1, 1, 0)
        for _ in 0 ..< 4 { #expect(client.request("/direct/1/1/0.png")?.body == original) }
        let page = try PrometheusExposition(try await service.get("/metrics").text)
        #expect(page.value("tilelayer_provider_calls_total", ["layer": "direct"]) == 4,
                "each answer counts a provider call, given again or not")
        let replacement = Fixtures.worldTile(2, 1, 1)
        replace("direct/1/1/0.png", with: replacement)
        try await Task.sleep(for: .seconds(OpenTileFiles.defaultValidity + 0.1))
        #expect(client.request("/direct/1/1/0.png")?.body == original, "the answer given again, its file still open")
        #expect(client.request("/direct/1/1/0.png", method: "HEAD")?.header("Content-Length") == String(replacement.count),
                "another head is answered by the service, from the new file")
        _ = await service.clearCache(layer: "direct")
        #expect(client.request("/direct/1/1/0.png")?.body == replacement, "revoked with the cache")
        await live.stop()
    }
}

/// A directory layer with a memory cache keeps the tiles that fit and sends the rest from their
/// files instead of evicting cached tiles for them.
@Suite(.ownThreads) struct FileAdmissionTests {
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
        #expect(second.reuse?.isPinned == true, "only a clear or a reload changes a cached tile: given again for reuseHitSeconds")
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
            let file = try #require(answer.file)
            #expect(try fileBytes(file) == Fixtures.worldTile(1, 1, 0))
        }
        #expect(service.pipeline.cache.statistics.count == 0)
        let etag = try #require(try await service.answerAsSent("/world/1/1/0.png").headers[.eTag])
        let cachedService = try self.service(memoryBytes: 64 << 20)
        #expect(try await cachedService.get("/world/1/1/0.png").headers[.eTag] == etag)
    }
}
