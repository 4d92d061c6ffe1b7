// One freshness contract (SPEC "Freshness"): a tile file, MBTiles or PMTiles archive changed on
// disk is served within `cache.revalidateSeconds`; a clear-cache and a reload are seen by the very
// next request, the files behind the layer included; an answer is always one whole version of a
// tile with that version's ETag. Each of the four failures issue 53 reproduced has a test here.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Hashing
import TestHTTPClient
import Testing
import TileGeometry
import TileHTTP
import Sockets
import TilePNG
import TileProviders
@testable import TileServer
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(2))) struct FreshnessTests {
    let folder = TemporaryFolder()

    /// A PNG of one colour, stored (not compressed): its length depends on its side alone.
    static func storedPNG(side: Int, red: UInt8) throws -> [UInt8] {
        try PNGEncoder(compressionLevel: 0).encode(RGBAImage(width: side, height: side, fill: RGBAColor(red: red, green: 0, blue: 0)))
    }

    /// A PNG whose chunks end on page boundaries (4 KiB): `pages` pages, its IDAT data all
    /// `fill` (a chunk walk takes it whole; nothing here decodes it). Two such files written over
    /// each other page by page make, at every page where a read may cut them, a file whose every
    /// chunk still passes its CRC: only reading it as one version keeps a mix out.
    static func pageAlignedPNG(pages: Int, fill: UInt8) -> [UInt8] {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + data
            var crc = UInt32.max  // CRC-32 (PNG's), bit by bit
            for byte in typed {
                crc ^= UInt32(byte)
                for _ in 0 ..< 8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
            }
            crc = ~crc
            return withUnsafeBytes(of: UInt32(data.count).bigEndian, Array.init) + typed
                + withUnsafeBytes(of: crc.bigEndian, Array.init)
        }
        let header: [UInt8] = [0, 0, 1, 0, 0, 0, 1, 0, 8, 2, 0, 0, 0]  // 256 × 256, 8-bit RGB
        var png = TileFormat.pngSignature + chunk("IHDR", header)
        while png.count < pages * 4096 - 12 {
            let room = (png.count / 4096 + 1) * 4096 - png.count - 12
            png += chunk("IDAT", [UInt8](repeating: fill, count: room))
        }
        return png + chunk("IEND", [])
    }

    /// Two tiles of the world pyramid, of different sizes.
    static let old = Fixtures.worldTile(1, 0, 0)
    static let new = Fixtures.worldTile(2, 1, 1)

    /// The configuration file `service(_:)` writes.
    private var configurationFile: String { folder.path + "/tilelayer.yml" }

    /// A service over `layers` (YAML list items), with an admin token, read from a file.
    private func service(_ layers: String) throws -> TileService {
        folder.write("tilelayer.yml", Array("""
            server: {port: 8080, adminToken: s3cret}
            layers:
            \(layers)
            """.utf8))
        let configuration = try Configuration.load(file: configurationFile, environment: [:])
        return TileService(state: try ServiceState(configuration: configuration, logger: Fixtures.logger),
                           logger: Fixtures.logger)
    }

    /// Writes an MBTiles file at `path` (through a temporary file renamed over it) whose tile 1/0/0 is `tile`.
    private func writeMBTiles(_ path: String, tile: [UInt8]) throws {
        let temporary = path + ".new"
        let writer = try MBTilesWriter(path: temporary)
        try writer.setMetadata("format", "png")
        try writer.write(tile: TileCoordinate(z: 1, x: 0, y: 0), data: tile)
        try writer.finish()
        #expect(rename(temporary, path) == 0)
    }

    /// Writes a PMTiles archive at `path` (renamed over it) whose tile 1/0/0 is `tile`.
    private func writePMTiles(_ path: String, tile: [UInt8]) throws {
        let temporary = path + ".new"
        let writer = try PMTilesWriter(path: temporary)
        try writer.write(tile: TileCoordinate(z: 1, x: 0, y: 0), data: tile)
        try writer.finish()
        #expect(rename(temporary, path) == 0)
    }

    /// Replaces the file at `relative` by a new one (a rename: a new inode), as tools do.
    private func replace(_ relative: String, with bytes: [UInt8]) {
        folder.write(relative + ".new", bytes)
        #expect(rename(folder.path + "/" + relative + ".new", folder.path + "/" + relative) == 0)
    }

    /// Writes `bytes` over the file at `path` in place, as `cp` does: the same inode, truncated
    /// and written again.
    private func writeInPlace(_ path: String, _ bytes: [UInt8]) {
        let fd = open(path, O_WRONLY | O_TRUNC)
        #expect(fd >= 0)
        #expect(bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count)
        close(fd)
    }

    private func clear(_ service: TileService, _ layer: String) async throws {
        #expect(try await AdminTests.post(service, "/admin/layers/\(layer)/clear-cache").status == .noContent)
    }

    /// Issue 53, failure 1: the everyday workflow — regenerate, move into place, clear — serves
    /// the new tiles from the very next request (and after a reload, and within the interval
    /// without either), on an MBTiles layer with the default memory cache.
    @Test func anMBTilesFileMovedIntoPlaceIsServedAfterAClearAReloadOrTheInterval() async throws {
        let path = folder.path + "/served.mbtiles"
        try writeMBTiles(path, tile: Self.old)
        // An interval long enough that writing a file and asking again fits in it on a busy machine.
        let service = try service("  - {name: mb, source: {type: mbtiles, path: \(path)}, cache: {revalidateSeconds: 1.5}}")
        #expect(try await service.get("/mb/1/0/0.png").body == Self.old)
        #expect(try await service.get("/mb/1/0/0.png").note == "hit")

        try writeMBTiles(path, tile: Self.new)
        try await clear(service, "mb")
        #expect(try await service.get("/mb/1/0/0.png").body == Self.new, "the next request after the clear")

        try writeMBTiles(path, tile: Self.old)
        #expect(try await service.get("/mb/1/0/0.png").note == "hit", "within the interval: the cached tile")
        _ = try service.reload(try Configuration.load(file: configurationFile, environment: [:]))
        #expect(try await service.get("/mb/1/0/0.png").body == Self.old, "the next request after a reload")

        try writeMBTiles(path, tile: Self.new)
        try await Task.sleep(for: .milliseconds(1600))
        #expect(try await service.get("/mb/1/0/0.png").body == Self.new, "past the interval, with neither")
    }

    /// An archive tile read past the memory cache is walked once per content (`CheckedTiles`),
    /// not once per place: a damaged tile of the same length at the same place in a new archive
    /// is refused, not taken for the good one read before.
    @Test func anArchiveTileIsCheckedOncePerContent() async throws {
        let path = folder.path + "/served.mbtiles"
        try writeMBTiles(path, tile: Self.old)
        let service = try service("  - {name: mb, source: {type: mbtiles, path: \(path)}, cache: {memory: false, revalidateSeconds: 0.2}}")
        let first = try await service.get("/mb/1/0/0.png")
        let second = try await service.get("/mb/1/0/0.png")
        #expect(first.body == Self.old && second.body == Self.old)
        #expect(second.headers[.eTag] == first.headers[.eTag])

        var damaged = Self.old
        damaged[damaged.count / 2] ^= 0xFF  // inside the image data: its chunk's CRC no longer matches
        try writeMBTiles(path, tile: damaged)
        try await Task.sleep(for: .milliseconds(300))
        let refused = try await service.get("/mb/1/0/0.png")
        #expect(refused.status == .badGateway, "the new version's tile is checked")
        #expect(refused.headers[.eTag] == nil)

        try writeMBTiles(path, tile: Self.old)
        try await Task.sleep(for: .milliseconds(300))
        let again = try await service.get("/mb/1/0/0.png")
        #expect(again.body == Self.old && again.headers[.eTag] == first.headers[.eTag])
    }

    /// Issue 53, failure 4 for PMTiles: an archive replaced by `mv` is picked up within the
    /// interval, and at once by a clear.
    @Test func aPMTilesArchiveMovedIntoPlaceIsServedWithinTheInterval() async throws {
        let path = folder.path + "/served.pmtiles"
        try writePMTiles(path, tile: Self.old)
        let service = try service("  - {name: pm, source: {type: pmtiles, path: \(path)}, cache: {revalidateSeconds: 0.3}}")
        #expect(try await service.get("/pm/1/0/0.png").body == Self.old)
        try writePMTiles(path, tile: Self.new)
        try await Task.sleep(for: .milliseconds(400))
        #expect(try await service.get("/pm/1/0/0.png").body == Self.new)
        try writePMTiles(path, tile: Self.old)
        try await clear(service, "pm")
        #expect(try await service.get("/pm/1/0/0.png").body == Self.old)
    }

    /// Issue 53, failure 2: a tile file rewritten in place (`cp` over it: the same inode, larger)
    /// and asked for at once is answered with the new bytes, their length and their ETag.
    @Test func aFileRewrittenInPlaceIsAnsweredWhole() async throws {
        folder.write("tiles/1/0/0.png", Self.old)
        let service = try service("  - {name: d, source: {type: directory, path: \(folder.path)/tiles}, cache: {memory: false}}")
        let before = try await service.get("/d/1/0/0.png")
        #expect(before.body == Self.old)
        writeInPlace(folder.path + "/tiles/1/0/0.png", Self.new)
        let after = try await service.get("/d/1/0/0.png")
        #expect(Bool(after.body == Self.new))
        #expect(after.headers[.eTag] == ContentHash.etag(of: Self.new))
        #expect(after.contentLength == Self.new.count)
    }

    /// Issue 53, failure 3: a rewrite of the same size whose modification time is put back
    /// (`rsync -t --inplace`), then a clear: the new bytes get their own ETag, and the old ETag
    /// no longer matches (200, not 304).
    @Test func aRewriteWithItsTimePutBackGetsItsOwnETag() async throws {
        let first = try Self.storedPNG(side: 64, red: 10)
        let second = try Self.storedPNG(side: 64, red: 200)
        try #require(first.count == second.count)
        folder.write("tiles/1/0/0.png", first)
        let path = folder.path + "/tiles/1/0/0.png"
        let service = try service("  - {name: d, source: {type: directory, path: \(folder.path)/tiles}}")
        let before = try await service.get("/d/1/0/0.png")
        let oldTag = try #require(before.headers[.eTag])
        var info = stat()
        #expect(stat(path, &info) == 0)
        writeInPlace(path, second)
        var times = [info.st_atim, info.st_mtim]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        try await clear(service, "d")
        let after = try await service.get("/d/1/0/0.png")
        #expect(Bool(after.body == second))
        #expect(after.headers[.eTag] == ContentHash.etag(of: second) && after.headers[.eTag] != oldTag)
        let conditional = try await service.get("/d/1/0/0.png", headers: [.ifNoneMatch: oldTag])
        #expect(conditional.status == .ok, "the old validator does not label the new bytes")
    }

    /// Issue 53, failure 4: with the default memory cache, a tile file replaced by rename is
    /// served within the interval, with no clear; so is a tile file that appears where there
    /// was none ("no tile" is kept no longer than a tile), and a `@2x` made from a changed child.
    @Test func aReplacedFileIsServedWithinTheIntervalWithoutAClear() async throws {
        folder.write("tiles/1/0/0.png", Self.old)
        folder.write("tiles/0/0/0.png", Fixtures.worldTile(0, 0, 0))
        // An interval long enough that the requests before the change fit in it on a busy machine.
        let service = try service("  - {name: d, source: {type: directory, path: \(folder.path)/tiles}, cache: {revalidateSeconds: 1.5}}")
        #expect(try await service.get("/d/1/0/0.png").body == Self.old)
        #expect(try await service.get("/d/1/0/0.png").note == "hit")
        #expect(try await service.get("/d/1/1/0.png").status == .notFound)
        let retina = try await service.get("/d/0/0/0@2x.png")
        #expect(retina.status == .ok)

        replace("tiles/1/0/0.png", with: Self.new)
        folder.write("tiles/1/1/0.png", Self.old)
        try await Task.sleep(for: .milliseconds(1600))
        let after = try await service.get("/d/1/0/0.png")
        #expect(Bool(after.body == Self.new))
        #expect(after.headers[.eTag] == ContentHash.etag(of: Self.new))
        #expect(try await service.get("/d/1/1/0.png").body == Self.old, "a tile that appeared")
        #expect(try await service.get("/d/0/0/0@2x.png").headers[.eTag] != retina.headers[.eTag],
                "the @2x made from a changed child is made again")
    }

    /// A tile file read before a partial clear of its layer and stored after it (the read
    /// raced the clear; a full clear moves the layer to a new generation instead) is checked
    /// against its file at the next request: the file replaced meanwhile is what is served.
    @Test func aTileReadBeforeAPartialClearIsCheckedAgain() async throws {
        folder.write("tiles/1/0/0.png", Self.old)
        let service = try service("  - {name: d, source: {type: directory, path: \(folder.path)/tiles}, cache: {revalidateSeconds: 3600}}")
        let layer = try #require(service.state.layers["d"])
        let files = try #require(layer.fileSource)
        let tile = TileCoordinate(z: 1, x: 0, y: 0)
        // The read, as the tile endpoint makes it: the file found, its version noted.
        let readAt = Monotonic.nanoseconds
        guard case .opened(let file) = files.tileFileWithoutWaiting(for: TileRequest(tile: tile)) else {
            Issue.record("the tile file was not opened")
            return
        }
        let version = FileVersion(path: file.path, identity: file.identity, local: files.opensWithoutWaiting)
        // Meanwhile the file is replaced and zoom 1 cleared.
        replace("tiles/1/0/0.png", with: Self.new)
        #expect(try await service.clearCache(layer: "d", where: { $0.tile.z == 1 }).get() != nil)
        // Then what was read is stored.
        let key = TilePipeline.stamped(TileKey(layer: "d", tile: tile, scale: 1, variables: [:]), layer: layer)
        let read = ServedTile(body: Self.old, contentHash: ContentHash.xxh64(Self.old), lastModified: file.modified)
        service.pipeline.store(TileFill(result: .success(.tile(read)), validator: version, readAt: readAt), for: key, layer: layer)

        let after = try await service.get("/d/1/0/0.png")
        #expect(Bool(after.body == Self.new), "the version read before the clear was served as checked")
    }

    /// A rewrite in place racing a stream of requests over a live connection: every 200 is one
    /// whole version — its bytes one of the versions written, its ETag theirs, its length theirs —
    /// and anything else is a 503 to retry, never a mix.
    @Test(arguments: [false, true])
    func rewritesRacingRequestsNeverGiveAMix(memory: Bool) async throws {
        let (short, same, long) = (Self.pageAlignedPNG(pages: 16, fill: 1), Self.pageAlignedPNG(pages: 16, fill: 2),
                                   Self.pageAlignedPNG(pages: 24, fill: 3))
        try #require([short, same, long].allSatisfy { TileFormat.png.defect(in: $0) == nil })
        let versions = [short, same, long]
        let path = folder.path + "/tiles/1/0/0.png"
        folder.write("tiles/1/0/0.png", short)
        let service = try service("""
              - {name: d, source: {type: directory, path: \(folder.path)/tiles}, cache: {memory: \(memory), revalidateSeconds: 0}}
            """)
        let live = try LiveServer(responder: service)
        let client = try RawHTTPClient(port: live.port, timeoutSeconds: 10)
        let writer = Thread {
            let start = Date()
            var turn = 0
            while Date().timeIntervalSince(start) < 2 {
                let bytes = versions[turn % 3]
                if turn % 2 == 0 {
                    let fd = open(path, O_WRONLY | O_TRUNC)  // cp: truncated, then written
                    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
                    close(fd)
                } else {
                    let fd = open(path, O_WRONLY)  // rsync --inplace: written over, no truncation
                    _ = bytes.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
                    _ = ftruncate(fd, off_t(bytes.count))
                    close(fd)
                }
                turn += 1
                // Rewrites back to back, a moment apart, and now and then a pause that a whole
                // read fits in however busy the machine (without it, a run saw only 503s).
                usleep(turn % 10 == 0 ? 20_000 : 300)
            }
        }
        writer.start()
        var (whole, retries) = (0, 0)
        let etags = Dictionary(uniqueKeysWithValues: versions.map { (ContentHash.etag(of: $0), $0) })
        let start = Date()
        while Date().timeIntervalSince(start) < 2 {
            let answer = try #require(client.request("/d/1/0/0.png"))
            switch answer.status {
            case 200:
                let version = try #require(etags[answer.header("ETag") ?? ""], """
                    an ETag of a version written: \(answer.header("ETag") ?? "none") over \(answer.body.count) bytes \
                    (\(versions.map(\.count))), hashing to \(ContentHash.etag(of: answer.body)), \
                    a whole PNG: \(TileFormat.png.defect(in: answer.body).map(\.reason) ?? "yes")
                    """)
                #expect(Bool(answer.body == version), "the bytes of the version the ETag names")
                #expect(answer.header("Content-Length") == String(version.count))
                whole += 1
            case 503:
                retries += 1
            default:
                Issue.record("status \(answer.status): \(answer.text)")
            }
        }
        while !writer.isFinished { try await Task.sleep(for: .milliseconds(10)) }
        #expect(whole > 10, "\(whole) whole answers, \(retries) retries")
        await live.stop()
    }

    /// A tile file cut to nothing by a writer that has not written it yet (`cp` over it, its
    /// writer stalled, the file settled since) is a write under way: 503 to retry, not a 502
    /// that says the tile is broken; once written and closed, the tile.
    @Test(arguments: [false, true])
    func aFileHeldOpenByAStalledWriterIsNotAvailableNow(memory: Bool) async throws {
        folder.write("tiles/1/0/0.png", Self.old)
        let path = folder.path + "/tiles/1/0/0.png"
        let service = try service("  - {name: d, source: {type: directory, path: \(folder.path)/tiles}, cache: {memory: \(memory), revalidateSeconds: 0}}")
        #expect(try await service.get("/d/1/0/0.png").status == .ok)
        let writer = open(path, O_WRONLY | O_TRUNC)
        try #require(writer >= 0)
        // Until the truncated file has settled: then it is read without a lease.
        try await Task.sleep(for: .seconds(FileIdentity.settlingSeconds) + .milliseconds(200))
        let stalled = try await service.get("/d/1/0/0.png")
        #expect(stalled.status == .serviceUnavailable && stalled.headers[.retryAfter] != nil, "\(stalled.status)")
        #expect(stalled.headers[.cacheControl] == "no-store")
        #expect(Self.new.withUnsafeBytes { write(writer, $0.baseAddress, $0.count) } == Self.new.count)
        close(writer)
        #expect(Bool(try await service.get("/d/1/0/0.png").body == Self.new))
    }

    /// `cache.revalidateSeconds` on a layer that reads no files is a configuration error naming
    /// the key, not a setting taken in silence.
    @Test func revalidateSecondsIsRefusedWhereNoFileIsRead() throws {
        #expect(throws: ConfigurationError.self) {
            _ = try service("  - {name: g, source: {type: debug}, cache: {revalidateSeconds: 1}}")
        }
    }
}
