import Foundation
import Testing
import TileGeometry
@testable import TileLayerCLI
@testable import TileProviders
@testable import TileServer
import TestThreads

/// `seed --to out.pmtiles` and `PMTilesWriter`: the reference `pmtiles` Python package reads what
/// we write (every tile byte for byte, header fields), and our own reader serves it.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(3))) struct PMTilesWriterTests {
    let folder = TemporaryFolder()

    @Test func seedToPMTilesIsReadByTheReferenceReaderAndOurs() async throws {
        let config = try Fixtures.configuration("""
        layers:
          - name: world
            source: {type: directory, path: \(Fixtures.worldFolder)}
            attribution: "Tom Patterson"
        """, in: folder)
        let out = folder.path + "/world.pmtiles"
        let command = try SeedCommand.parse(["--layer", "world", "--zoom", "0-3", "--to", out])
        let summary = try await command.execute(configuration: config, logger: Fixtures.logger,
                                                progress: SeedProgress(total: 85, isTerminal: false, interval: 0, write: { _ in }))
        #expect(summary.tiles == 85 && summary.errors == 0)

        let dump = folder.path + "/dump"
        let reference = try await PMTilesReference.read(out, dumpingTilesTo: dump)
        #expect(reference["tiles_read"] as? Int == 85)
        #expect(reference["min_zoom"] as? Int == 0 && reference["max_zoom"] as? Int == 3)
        #expect(reference["addressed_tiles_count"] as? Int == 85)
        #expect(reference["tile_type"] as? Int == Int(PMTilesTileType.png.rawValue))
        #expect(reference["clustered"] as? Bool == true)
        #expect(reference["internal_compression"] as? Int == Int(PMTilesCompression.gzip.rawValue))
        // Bounds: the layer's (the world, to ±85.05°), as int32 × 10⁷.
        #expect(abs((reference["min_lat_e7"] as? Int ?? 0) + 850_511_287) < 10)
        #expect(reference["max_lon_e7"] as? Int == 1_800_000_000)
        let metadata = try #require(reference["metadata"] as? [String: Any])
        #expect(metadata["attribution"] as? String == "Tom Patterson" && metadata["name"] as? String == "world")

        let provider = try PMTilesTileProvider(path: out)
        for z in 0 ... 3 {
            for x in 0 ..< (1 << z) {
                for y in 0 ..< (1 << z) {
                    let expected = Fixtures.worldTile(z, x, y)
                    let theirs = FileManager.default.contents(atPath: "\(dump)/\(z)/\(x)/\(y)").map { [UInt8]($0) }
                    #expect(Bool(theirs == expected), "reference reader: \(z)/\(x)/\(y) differs")
                    guard case .tile(let tile) = try provider.tileFor(x: x, y: y, zoom: z) else {
                        Issue.record("our reader: no tile \(z)/\(x)/\(y)")
                        continue
                    }
                    #expect(Bool(tile.data == expected), "our reader: \(z)/\(x)/\(y) differs")
                }
            }
        }
        #expect(provider.metadata.attribution == "Tom Patterson")
        #expect(provider.header.minZoom == 0 && provider.header.maxZoom == 3)
    }

    /// 5,461 tiles (zooms 0–6) with a thousand distinct contents written in an order unlike the
    /// tile ids, and a zoom-6 stretch of one content: deduplicated, run lengths, and (with the
    /// root capped at 1 KiB as the reference fixture does) leaf directories.
    @Test func manyTilesMakeLeavesDeduplicatedContentsAndRuns() async throws {
        let out = folder.path + "/many.pmtiles"
        let writer = try PMTilesWriter(path: out, maxRootBytes: 1024)
        try writer.setMetadata("name", "many")
        func content(_ z: Int, _ x: Int, _ y: Int) -> [UInt8] {
            // Zoom 6, rows 0–7: one content for all (runs within each Hilbert stretch).
            if z == 6 && y < 8 { return Array("sea".utf8) }
            return Array("tile \((x * 31 + y * 17 + z) % 997)".utf8)
        }
        var distinct = Set<[UInt8]>()
        for z in (0 ... 6).reversed() {
            for y in 0 ..< (1 << z) {
                for x in 0 ..< (1 << z) {
                    try writer.write(tile: TileCoordinate(z: z, x: x, y: y), data: content(z, x, y))
                    distinct.insert(content(z, x, y))
                }
            }
        }
        try writer.finish()

        let dump = folder.path + "/dump"
        let reference = try await PMTilesReference.read(out, dumpingTilesTo: dump)
        #expect(reference["tiles_read"] as? Int == 5461)
        #expect(reference["addressed_tiles_count"] as? Int == 5461)
        #expect(reference["tile_contents_count"] as? Int == distinct.count)
        let entries = try #require(reference["tile_entries_count"] as? Int)
        #expect(entries < 5461, "runs of one content share an entry")
        #expect((reference["root_length"] as? Int ?? .max) <= 1024)
        #expect((reference["leaf_directory_length"] as? Int ?? 0) > 0, "the root alone would exceed 1 KiB")

        let provider = try PMTilesTileProvider(path: out)
        var mismatches = 0
        for z in 0 ... 6 {
            for y in 0 ..< (1 << z) {
                for x in 0 ..< (1 << z) {
                    let expected = content(z, x, y)
                    let theirs = FileManager.default.contents(atPath: "\(dump)/\(z)/\(x)/\(y)").map { [UInt8]($0) }
                    guard case .tile(let tile) = try provider.tileFor(x: x, y: y, zoom: z),
                          tile.data == expected, theirs == expected else { mismatches += 1; continue }
                }
            }
        }
        #expect(mismatches == 0)
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 7) == .noTile)
    }

    @Test func cancelLeavesNoFileAndAnEmptyArchiveIsRefused() throws {
        let out = folder.path + "/none.pmtiles"
        let writer = try PMTilesWriter(path: out)
        try writer.write(tile: TileCoordinate(z: 0, x: 0, y: 0), data: [1, 2, 3])
        writer.cancel()
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect((try FileManager.default.contentsOfDirectory(atPath: folder.path)).isEmpty)
        let empty = try PMTilesWriter(path: out)
        #expect(throws: TileProviderError.invalidConfiguration("no tiles to write to \(out)")) { try empty.finish() }
        #expect(!FileManager.default.fileExists(atPath: out))
        #expect(throws: TileProviderError.self) { try PMTilesWriter(path: out).write(tile: TileCoordinate(z: 1, x: 2, y: 0), data: [1]) }
    }
}
