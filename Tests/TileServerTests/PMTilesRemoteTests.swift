import Foundation
import Testing
import TileGeometry
import TileHTTP
import TilePNG
@testable import TileProviders
@testable import TileServer
import TestThreads

/// `{type: pmtiles, url: …}`: an archive written by the reference `pmtiles` package, served by a
/// second real HTTP server of ours with Range, ETag and If-Match (`RangeFileServer`).
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2))) struct PMTilesRemoteTests {
    let folder = TemporaryFolder()

    /// The reference archive of the world pyramid (leaf directories forced) behind a live server.
    func withRemoteArchive(_ body: (RangeFileServer, String) async throws -> Void) async throws {
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive, maxRootBytes: 200)
        let files = try RangeFileServer(file: archive)
        let live = try LiveServer(responder: files)
        try await body(files, "http://127.0.0.1:\(live.port)/archive.pmtiles")
        await live.stop()
    }

    func tile(_ provider: PMTilesRemoteTileProvider, _ z: Int, _ x: Int, _ y: Int) async throws -> TileResult {
        try await provider.requestTile(TileRequest(tile: TileCoordinate(z: z, x: x, y: y)))
    }

    @Test func servesEveryTileByteForByteWithRangeReadsPinnedByETag() async throws {
        try await withRemoteArchive { files, url in
            let provider = PMTilesRemoteTileProvider(url: url, logger: Fixtures.logger)
            for z in 0 ... 3 {
                for x in 0 ..< (1 << z) {
                    for y in 0 ..< (1 << z) {
                        #expect(try await tile(provider, z, x, y) == .tile(Tile(data: Fixtures.worldTile(z, x, y))), "\(z)/\(x)/\(y)")
                    }
                }
            }
            #expect(try await tile(provider, 9, 0, 0) == .noTile)
            let seen = files.seen.withLock { $0 }
            // One initial 16 KiB read without If-Match; every later read pinned to the version.
            #expect(seen.first == .init(range: "bytes=0-16383", ifMatch: nil, status: 206))
            #expect(seen.dropFirst().allSatisfy { $0.ifMatch == files.etag && $0.status == 206 && $0.range != nil })
            #expect(seen.filter { $0.range == "bytes=0-16383" }.count == 1, "the header is read once")
            // Leaves are cached: a second pass reads only tiles (85 of them).
            let before = seen.count
            for (z, x, y) in [(3, 0, 0), (3, 7, 7), (2, 1, 3)] { _ = try await tile(provider, z, x, y) }
            #expect(files.seen.withLock { $0.count } - before == 3)
            #expect(provider.header?.maxZoom == 3)
        }
    }

    @Test func aReplacedArchiveIs412ThenReadAgainAndItsNewTilesServed() async throws {
        try await withRemoteArchive { files, url in
            let provider = PMTilesRemoteTileProvider(url: url, logger: Fixtures.logger)
            #expect(try await tile(provider, 1, 1, 0) == .tile(Tile(data: Fixtures.worldTile(1, 1, 0))))
            // A new archive (solid red tiles) under a new ETag.
            let red = try PNGEncoder().encode(RGBAImage(width: 256, height: 256, fill: .red))
            let replacement = folder.path + "/red.pmtiles"
            let writer = try PMTilesWriter(path: replacement)
            for z in 0 ... 1 { for x in 0 ..< (1 << z) { for y in 0 ..< (1 << z) { try writer.write(tile: TileCoordinate(z: z, x: x, y: y), data: red) } } }
            try writer.finish()
            try files.replace(with: replacement)

            #expect(try await tile(provider, 1, 1, 0) == .tile(Tile(data: red)))
            #expect(try await tile(provider, 2, 0, 0) == .noTile, "the new archive stops at zoom 1")
            let seen = files.seen.withLock { $0 }
            #expect(seen.contains { $0.status == 412 && $0.ifMatch == "\"v1\"" })
            #expect(seen.filter { $0.range == "bytes=0-16383" }.count == 2, "header read again after the 412")
            #expect(seen.last?.ifMatch == "\"v2\"")
            #expect(provider.header?.maxZoom == 1)
        }
    }

    @Test func anArchiveThatDisappearsIs503WithRetryAfterThenServedAgain() async throws {
        try await withRemoteArchive { files, url in
            let service = try Fixtures.service(extraYAML: """
              - name: remote
                source: {type: pmtiles, url: "\(url)"}
                maxZoom: 3
            """, folder: folder)
            #expect(try await service.get("/remote/1/0/1.png").body == Fixtures.worldTile(1, 0, 1))
            files.gone.store(true, ordering: .relaxed)
            let missing = try await service.get("/remote/2/1/1.png")
            #expect(missing.status == .serviceUnavailable)
            #expect(missing.headers[.retryAfter] == "5")
            #expect(missing.headers[.cacheControl] == "no-store")
            // Nothing from the failed read was kept: the same tile is served once the archive is back.
            files.gone.store(false, ordering: .relaxed)
            let back = try await service.get("/remote/2/1/1.png")
            #expect(back.status == .ok && back.body == Fixtures.worldTile(2, 1, 1))
        }
    }

    /// The layer's TileJSON before the first read (configuration and defaults; asking reads
    /// nothing), after it (the archive fills what the configuration left out) and while the
    /// archive is gone (still the last version read).
    @Test func tileJSONIsFilledFromTheArchiveByTheFirstSuccessfulRead() async throws {
        try await withRemoteArchive { files, url in
            let service = try Fixtures.service(extraYAML: """
              - name: remote
                source: {type: pmtiles, url: "\(url)"}
                attribution: "configured"
            """, folder: folder)
            func tileJSON() async throws -> [String: Any] {
                let answer = try await service.get("/remote.json")
                #expect(answer.status == .ok)
                return try #require(try JSONSerialization.jsonObject(with: Data(answer.body)) as? [String: Any])
            }
            let before = try await tileJSON()
            #expect(before["minzoom"] as? Int == 0 && before["maxzoom"] as? Int == Layer.defaultMaxZoom)
            #expect(before["attribution"] as? String == "configured" && before["description"] == nil)
            #expect(before["center"] as? [Double] == [0, 0, 2])
            #expect(files.seen.withLock { $0.isEmpty }, "TileJSON does not read the archive")

            #expect(try await service.get("/remote/1/1/0.png").body == Fixtures.worldTile(1, 1, 0))
            let after = try await tileJSON()
            #expect(after["minzoom"] as? Int == 0 && after["maxzoom"] as? Int == 3, "the header's zoom range")
            #expect(after["attribution"] as? String == "configured", "the configuration wins")
            #expect(after["description"] as? String == "Natural Earth world pyramid", "the archive's metadata")
            let bounds = try #require(after["bounds"] as? [Double])
            #expect(bounds.count == 4 && abs(bounds[0] + 180) < 1e-6 && abs(bounds[3] - 85.0511287) < 1e-6)
            #expect(after["center"] as? [Double] == [0, 0, 1], "the header's center")
            #expect(after["format"] as? String == "png" && after["vector_layers"] == nil)

            // Gone (503 for tiles): the layer is still described by the version read last.
            files.gone.store(true, ordering: .relaxed)
            #expect(try await service.get("/remote/2/1/1.png").status == .serviceUnavailable)
            let whileGone = try await tileJSON()
            #expect(whileGone["maxzoom"] as? Int == 3 && whileGone["description"] as? String == "Natural Earth world pyramid")
        }
    }

    @Test func aRefusedConnectionIsUnavailableAndABadURLIsAConfigurationError() async throws {
        // A port that was bound and released: nothing listens there.
        let closed = try LiveServer(responder: RangeFileServer(file: Fixtures.worldFolder + "/0/0/0.png"))
        let port = closed.port
        await closed.stop()
        let provider = PMTilesRemoteTileProvider(url: "http://127.0.0.1:\(port)/archive.pmtiles", logger: Fixtures.logger)
        #expect(try await tile(provider, 0, 0, 0) == .unavailable(retryAfter: 5))
        #expect(provider.header == nil)
        #expect(throws: ConfigurationError.self) {
            try Fixtures.service(extraYAML: """
              - name: remote
                source: {type: pmtiles, url: "ftp://example.org/a.pmtiles"}
            """, folder: folder)
        }
    }

    @Test func aFileThatIsNotPMTilesIsABadGatewayNamingTheURL() async throws {
        let files = try RangeFileServer(file: Fixtures.worldFolder + "/0/0/0.png")
        let live = try LiveServer(responder: files)
        let url = "http://127.0.0.1:\(live.port)/archive.pmtiles"
        let provider = PMTilesRemoteTileProvider(url: url, logger: Fixtures.logger)
        await #expect(throws: TileProviderError.upstream(url: url, reason: "not a PMTiles v3 archive: no \"PMTiles\" magic number")) {
            try await tile(provider, 0, 0, 0)
        }
        #expect(provider.header == nil)
        let service = try Fixtures.service(extraYAML: """
          - name: remote
            source: {type: pmtiles, url: "\(url)"}
        """, folder: folder)
        let answer = try await service.get("/remote/0/0/0.png")
        #expect(answer.status == .badGateway)
        let text = String(decoding: answer.body, as: UTF8.self)
        #expect(text.contains("not a PMTiles v3 archive") && text.contains(url), "\(text)")
        await live.stop()
    }
}
