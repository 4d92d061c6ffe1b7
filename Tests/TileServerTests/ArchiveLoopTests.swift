// An MBTiles layer without a memory cache (and, with one, a miss the cache would not take in)
// is answered on the event loop from the page cache, with the bytes, ETag and conditional
// answers the workers give, each tile version hashed once.

#if os(Linux)
import Foundation
import TestHTTPClient
import Testing
import Sockets
import TileGeometry
import TileHTTP
@testable import TileServer
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct ArchiveLoopTests {
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
          - name: mbi
            source: {type: mbtiles, path: \(folder.path)/bm.mbtiles, immutable: true}
            cache: {memory: false}
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

    /// A tile asked for again and again with the same head is given again by the event loop
    /// (copied once, after `repeatsBeforeReuse` requests for it) without a read, until a
    /// clear-cache, as a tile file's
    /// answer is: a change of the file is not seen meanwhile (answers live a minute here), by
    /// that head; another head reads the file. Each answer counts a provider call.
    @Test func aTileAskedForAgainIsGivenAgainUntilAClear() async throws {
        let live = try LiveServer(responder: service) { $0.reusedAnswerLifetime = 60 }
        let client = try RawHTTPClient(port: live.port)
        let file = folder.path + "/bm.mbtiles"
        _ = try Data(contentsOf: URL(fileURLWithPath: file))  // in the page cache: read on the loop
        let replacement = try #require(client.request("/mb/0/0/0.png", headers: ["Accept: image/*"])?.body)
        let calls = { () async throws -> Double? in
            try PrometheusExposition(try await self.service.get("/metrics").text)
                .value("tilelayer_provider_calls_total", ["layer": "mb"])
        }
        let before = try #require(try await calls())
        let original = try #require(client.request("/mb/1/1/0.png")?.body)
        #expect(original != replacement)
        // Copied at the request after `repeatsBeforeReuse` others, given again at the next.
        let again = TileService.repeatsBeforeReuse + 1
        for _ in 0 ..< again { #expect(client.request("/mb/1/1/0.png")?.body == original) }
        #expect(try await calls() == before + Double(again + 1), "each answer counts a provider call, given again or not")

        // Tile 1/1/0 (TMS row 1) becomes tile 0/0/0, written by another process once the
        // readers let their read transactions go (250 ms).
        try SQLiteCLI.run(file, "PRAGMA busy_timeout = 5000; "
            + "UPDATE tiles SET tile_data = (SELECT tile_data FROM tiles WHERE zoom_level = 0) "
            + "WHERE zoom_level = 1 AND tile_column = 1 AND tile_row = 1")
        try await Task.sleep(for: .milliseconds(600))  // past the readers' transactions
        _ = try Data(contentsOf: URL(fileURLWithPath: file))
        #expect(client.request("/mb/1/1/0.png")?.body == original, "the answer given again")
        #expect(client.request("/mb/1/1/0.png", headers: ["Accept: image/*"])?.body == replacement,
                "another head is answered from the file")
        _ = await service.clearCache(layer: "mb")
        #expect(client.request("/mb/1/1/0.png")?.body == replacement, "revoked with the cache")
        await live.stop()
    }

    /// Each tile asked for once (no answer given again) is lent where it lies: from a file
    /// declared immutable its pages go to the socket by reference, from another file they are
    /// copied; the client gets the same bytes either way, the workers' bytes.
    @Test func anImmutableFilesTilesGoToTheSocketByReference() async throws {
        let live = try LiveServer(responder: service)
        let client = try RawHTTPClient(port: live.port)
        _ = try Data(contentsOf: URL(fileURLWithPath: folder.path + "/bm.mbtiles"))  // in the page cache
        let tiles = (0 ... 2).flatMap { z in (0 ..< 1 << z).flatMap { x in (0 ..< 1 << z).map { y in "\(z)/\(x)/\(y).png" } } }
        var expected: [String: [UInt8]] = [:]
        for tile in tiles { expected[tile] = try await service.get("/mbc/" + tile).sentBody }
        for tile in tiles { #expect(client.request("/mb/" + tile)?.body == expected[tile], "\(tile) copied") }
        #expect(live.server.bytesSentByReference == 0, "a file not declared immutable: its pages are copied")
        for tile in tiles { #expect(client.request("/mbi/" + tile)?.body == expected[tile], "\(tile) by reference") }
        let total = expected.values.reduce(0) { $0 + $1.count }
        #expect(live.server.bytesSentByReference > total / 2 && live.server.bytesSentByReference <= total,
                "most of the immutable file's tiles went by reference")
        await live.stop()
    }

    /// A layer with a memory cache that takes a missed tile in has the workers read it and keep
    /// it; the loop answers its hits.
    @Test func aCachedLayersMissGoesToTheWorkers() async throws {
        #expect(try await onLoop("/mb/2/1/1.png") != nil, "readable on the loop: the uncached layer reads it there")
        #expect(try service.answerOnLoop("/mbc/2/1/1.png") == nil, "taken in: left to the workers")
        let read = try await service.get("/mbc/2/1/1.png")
        #expect(read.status == .ok)
        #expect(try service.answerOnLoop("/mbc/2/1/1.png")?.note == "hit")
    }

    /// A layer with a memory cache full of tiles asked for as often as the one missed (TinyLFU's
    /// admission: `TilePipeline.admits`) answers that miss on the loop, as a layer without a
    /// cache does, counts it as one miss and one provider call, and keeps nothing; the workers,
    /// reading it when the loop cannot, do not keep it either. A working set larger than the
    /// cache then neither churns it nor waits for the workers.
    @Test func aCachedLayersMissThatWouldEvictIsReadOnTheLoopAndNotKept() async throws {
        // 180 KB a shard for tiles (three quarters of memoryBytes, over 16 shards): one tile
        // (97-119 KB) fits in any, two in none, so the 21 tiles cannot all be kept, and a tile
        // not kept would fit by evicting one asked for as often.
        let small = try Fixtures.service(extraYAML: """
          - name: mbc
            source: {type: mbtiles, path: \(folder.path)/bm.mbtiles}
        """, server: ", cache: {memoryBytes: \(16 * 240_000)}", folder: folder)
        let tiles = (0 ... 2).flatMap { z in (0 ..< 1 << z).flatMap { x in (0 ..< 1 << z).map { y in "/mbc/\(z)/\(x)/\(y).png" } } }
        for tile in tiles { #expect(try await small.get(tile).status == .ok) }
        let kept = small.pipeline.cache.statistics.count
        #expect(kept > 0 && kept < tiles.count, "those that fitted are kept")
        // Every tile asked for alike (each loop lookup counts in the admission's sketch), so the
        // few more asks below do not make one tile outrank the kept ones (twice as often, and 2).
        for _ in 0 ..< 5 { for tile in tiles { _ = try small.answerOnLoop(tile) } }
        var cold: (path: String, answer: HTTPResponse)?
        for tile in tiles where cold == nil {
            // A tile whose pages were paged out meanwhile is left to the workers: read it back.
            var answer = try small.answerOnLoop(tile)
            if answer == nil { _ = try await small.get(tile); answer = try small.answerOnLoop(tile) }
            if let answer, answer.note == "miss" { cold = (tile, answer) }
        }
        let (path, loop) = try #require(cold, "a tile not kept is answered on the loop")
        #expect(loop.status == .ok)
        // The workers' answer of a layer that keeps the tile (the suite's `mbc`, a large cache).
        let stored = try await service.get(path)
        #expect(loop.body.count == stored.sentBody.count && loop.body == stored.sentBody)
        #expect(loop.headers[.eTag] == stored.headers[.eTag])
        #expect(small.pipeline.cache.statistics.count == kept, "not kept")

        func counts() async throws -> [Double?] {
            let page = try PrometheusExposition(try await small.get("/metrics").text)
            return ["tilelayer_cache_misses_total", "tilelayer_provider_calls_total", "tilelayer_cache_hits_total"]
                .map { page.value($0, ["layer": "mbc"]) }
        }
        let before = try await counts()
        var onLoop = 0
        for _ in 0 ..< 3 {
            if let again = try small.answerOnLoop(path) {
                #expect(again.note == "miss")
                onLoop += 1
            }
        }
        #expect(onLoop > 0)
        let after = try await counts()
        #expect(after[0] == before[0].map { $0 + Double(onLoop) }, "one miss each")
        #expect(after[1] == before[1].map { $0 + Double(onLoop) }, "one provider call each")
        #expect(after[2] == before[2], "no hit")

        // The workers' way (pages not in the page cache): the pipeline reads it, and does not keep it.
        let layer = try #require(small.state.layers["mbc"])
        let numbers = path.dropFirst("/mbc/".count).dropLast(".png".count).split(separator: "/").compactMap { Int($0) }
        try #require(numbers.count == 3)
        let key = TileKey(layer: "mbc", tile: TileCoordinate(z: numbers[0], x: numbers[1], y: numbers[2]), scale: 1)
        guard case .success(.tile(let read)) = await small.pipeline.outcome(for: key, layer: layer) else {
            Issue.record("the workers read no tile")
            return
        }
        #expect(read.body == stored.sentBody)
        #expect(small.pipeline.cachedOutcome(for: key, layer: layer) == nil, "the workers do not keep it either")
        #expect(small.pipeline.cache.statistics.count == kept)
    }
}
#endif
