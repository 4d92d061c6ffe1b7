import ArgumentParser
import Foundation
import Testing
import TileGeometry
@testable import TileLayerCLI
@testable import TileProviders
@testable import TileServer
import TestThreads

/// `tilelayer seed`, run in-process through its command type.
@Suite(.ownThreads, .timeLimit(.minutes(2))) struct SeedCommandTests {
    let folder = TemporaryFolder()

    func configuration(disk: Bool = false) throws -> Configuration {
        try Fixtures.configuration("""
        layers:
          - name: world
            source: {type: directory, path: \(Fixtures.worldFolder)}
            attribution: "Tom Patterson"
          - name: debug
            source: {type: debug}
            maxZoom: 22
            \(disk ? "cache: {disk: cache}" : "")
        """, in: folder)
    }

    /// Runs `seed` with `arguments`, progress lines captured.
    func seed(_ arguments: [String], disk: Bool = false) async throws -> (SeedSummary, [String]) {
        let lines = LinesBox()
        let command = try SeedCommand.parse(arguments)
        let plan = try command.makePlan(layer: try #require(try ServiceState(configuration: configuration(disk: disk), logger: Fixtures.logger).layers[command.layer]))
        let progress = SeedProgress(total: plan.count, isTerminal: false, interval: 0, write: { lines.append($0) })
        let summary = try await command.execute(configuration: try configuration(disk: disk), logger: Fixtures.logger, progress: progress)
        return (summary, lines.all)
    }

    @Test func toWritesAnMBTilesFileOurProviderAndSqlite3Read() async throws {
        let out = folder.path + "/world.mbtiles"
        let (summary, lines) = try await seed(["--layer", "world", "--zoom", "0-2", "--to", out])
        #expect(summary.tiles == 21 && summary.noTile == 0 && summary.errors == 0 && summary.unavailable == 0)
        #expect(summary.bytes > 0)
        #expect(lines.last?.contains("21/21") == true)

        let provider = try MBTilesTileProvider(path: out)
        #expect(provider.metadata.minZoom == 0 && provider.metadata.maxZoom == 2)
        #expect(provider.metadata.name == "world" && provider.metadata.format == "png")
        #expect(provider.metadata.bounds != nil && provider.metadata.center != nil)
        for (z, x, y) in [(0, 0, 0), (1, 0, 0), (2, 3, 1), (2, 1, 3)] {
            guard case .tile(let tile) = try provider.tileFor(x: x, y: y, zoom: z) else { Issue.record("no tile \(z)/\(x)/\(y)"); continue }
            #expect(tile.data == Fixtures.worldTile(z, x, y))
        }

        #expect(try SQLiteCLI.run(out, "SELECT count(*) FROM tiles") == "21")
        #expect(try SQLiteCLI.run(out, "SELECT value FROM metadata WHERE name = 'attribution'") == "Tom Patterson")
        // MBTiles 1.3: rows are TMS, y flipped — XYZ 2/3/0 is row 3.
        let hex = try SQLiteCLI.run(out, "SELECT hex(tile_data) FROM tiles WHERE zoom_level = 2 AND tile_column = 3 AND tile_row = 3")
        #expect(hex == Fixtures.worldTile(2, 3, 0).map { String(format: "%02X", $0) }.joined())
    }

    @Test func viewSeedsExactlyTheViewTiles() async throws {
        let view = "-118.6,49.9,6.2,30,20"
        let (summary, _) = try await seed(["--layer", "debug", "--view", view, "--size", "800x600"], disk: true)
        let camera = Camera(latitude: 49.9, longitude: -118.6, zoom: 6.2, bearing: 30, tilt: 20)
        let expected = ViewTiles(camera: camera, viewport: Viewport(width: 800, height: 600)).tiles(atZoom: 6)
        #expect(!expected.isEmpty && summary.tiles == expected.count)
        let root = folder.path + "/cache/debug"
        let stored = try FileManager.default.subpathsOfDirectory(atPath: root).filter { $0.hasSuffix(".tile") }
        #expect(Set(stored) == Set(expected.map { "\($0.z)/\($0.x)/\($0.y).tile" }))
    }

    @Test func viewTiltIsLimitedAtTheZoomSeededNotTheZoomAsked() throws {
        let configuration = try Fixtures.configuration("""
        layers:
          - name: deep
            source: {type: debug}
            minZoom: 16
            maxZoom: 18
        """, in: folder)
        let layer = try #require(try ServiceState(configuration: configuration, logger: Fixtures.logger).layers["deep"])
        let plan = try SeedCommand.parse(["--layer", "deep", "--view", "-118.6,49.9,8,0,60", "--size", "400x300"]).makePlan(layer: layer)
        guard case .tiles(let tiles, _) = plan.area else { Issue.record("not a view plan"); return }
        // Zoom 8 is raised to 16, where 60° is allowed (it was clamped to zoom 8's 30° first).
        let camera = Camera(latitude: 49.9, longitude: -118.6, zoom: 16, tilt: 60)
        #expect(tiles == ViewTiles(camera: camera, viewport: Viewport(width: 400, height: 300)).tiles(atZoom: 16))
    }

    @Test func retinaViewSeeds2xTilesAndRetinaFlagBoth() async throws {
        let (summary, _) = try await seed(["--layer", "debug", "--view", "10,50,3", "--size", "300x200@2x"], disk: true)
        let stored = try FileManager.default.subpathsOfDirectory(atPath: folder.path + "/cache/debug").filter { $0.hasSuffix(".tile") }
        // The renderer's 256 px sources are cached too; the seeded tiles are the @2x ones.
        #expect(summary.tiles > 0 && summary.tiles == stored.filter { $0.hasSuffix("@2x.tile") }.count)
        let (both, _) = try await seed(["--layer", "debug", "--bbox", "0,0,10,10", "--zoom", "4", "--retina"], disk: true)
        #expect(both.requested == 2 && both.tiles == 2)
    }

    @Test func moreThanMaxTilesIsRefusedWithoutForce() async throws {
        // Zooms 0-22 of the whole world: (4^23 - 1) / 3 tiles, over the default --max-tiles.
        let everything = try await #require(throws: ValidationError.self) {
            _ = try await seed(["--layer", "debug", "--zoom", "0-22"], disk: true)
        }
        #expect(everything.message == "this would seed 23456248059221 tiles, more than --max-tiles 100000; "
            + "narrow --zoom or --bbox, raise --max-tiles, or pass --force")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cache"), "refused before any tile")
        let over = try await #require(throws: ValidationError.self) {
            _ = try await seed(["--layer", "world", "--zoom", "0-3", "--max-tiles", "20", "--to", folder.path + "/x.mbtiles"])
        }
        #expect(over.message == "this would seed 85 tiles, more than --max-tiles 20; "
            + "narrow --zoom or --bbox, raise --max-tiles, or pass --force")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/x.mbtiles"))
        let (forced, _) = try await seed(["--layer", "world", "--zoom", "0-3", "--max-tiles", "20", "--force", "--to", folder.path + "/x.mbtiles"])
        #expect(forced.tiles == 85)
    }

    @Test func aLayerWithoutDiskCacheNeedsTo() async throws {
        let refused = try await #require(throws: ValidationError.self) { _ = try await seed(["--layer", "world", "--zoom", "0"]) }
        #expect(refused.message == "layer \"world\" has no cache.disk: seeding would only fill this process's memory; "
            + "configure cache.disk for it or write a file with --to FILE.mbtiles")
    }

    @Test func diskSeedIsServedLaterWithoutTheSource() async throws {
        let (summary, _) = try await seed(["--layer", "debug", "--zoom", "0-1", "--bbox", "-180,-85,180,85"], disk: true)
        #expect(summary.tiles == 5)
        let path = folder.path + "/cache/debug/1/1/0.tile"
        #expect(FileManager.default.fileExists(atPath: path))
    }

    @Test func bboxRangesCrossTheAntimeridian() {
        let ranges = SeedPlan.ranges(GeoBounds(west: 170, south: -10, east: -170, north: 10), zoom: 3)
        #expect(ranges.map(\.xs) == [7 ... 7, 0 ... 0] && ranges.allSatisfy { $0.ys == 3 ... 4 })
        #expect(SeedPlan.ranges(WebMercator.worldBounds, zoom: 2).tileCount == 16)
    }
}

/// Lines collected from a progress writer.
final class LinesBox: @unchecked Sendable {
    // Written by one seeding task at a time and read after it ends.
    private(set) var all: [String] = []
    func append(_ line: String) { all.append(line) }
}
