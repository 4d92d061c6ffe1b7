import Foundation
import Synchronization
import Testing
import TileGeometry
@testable import TileProviders

@Suite("MBTiles provider")
struct MBTilesTileProviderTests {
    @Test("Rows are TMS: 1/0/0 stored, 1/0/1 absent, read back in XYZ")
    func tmsFlip() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 1, x: 0, y: 0)  // XYZ: north-west
        let file = try fixture.write("flip.mbtiles", tiles: [tile])
        let provider = try MBTilesTileProvider(path: file)
        guard case .tile(let found) = try provider.tileFor(x: 0, y: 0, zoom: 1) else {
            Issue.record("1/0/0 missing")
            return
        }
        #expect(found.data == MBTilesFixture.bytes(for: tile))
        #expect(found.lastModified != nil)
        #expect(try provider.tileFor(x: 0, y: 1, zoom: 1) == .noTile)
        #expect(try provider.tileFor(x: 1, y: 0, zoom: 1) == .noTile)
    }

    @Test("Every tile of a small pyramid comes back byte-for-byte")
    func roundTrip() throws {
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 3)
        let file = try fixture.write("pyramid.mbtiles", tiles: tiles)
        let provider = try MBTilesTileProvider(path: file)
        for tile in tiles {
            #expect(try provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z) == .tile(
                Tile(data: MBTilesFixture.bytes(for: tile), lastModified: provider.tileLastModified)))
        }
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 4) == .noTile)
    }

    @Test("Coordinates outside the grid are no tile",
          arguments: [(0, 1, 0), (-1, 0, 1), (0, 2, 1), (0, 0, -1), (0, 0, 31)])
    func outsideGrid(x: Int, y: Int, zoom: Int) throws {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("grid.mbtiles", tiles: MBTilesFixture.pyramid(0 ... 1))
        #expect(try MBTilesTileProvider(path: file).tileFor(x: x, y: y, zoom: zoom) == .noTile)
    }

    @Test("Concurrent reads from many threads get the right bytes", .timeLimit(.minutes(1)))
    func concurrentReads() throws {
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 3)
        let file = try fixture.write("concurrent.mbtiles", tiles: tiles)
        let provider = try MBTilesTileProvider(path: file)
        let wrong = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 4000) { index in
            let tile = tiles[(index * 7) % tiles.count]
            let result = try? provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z)
            guard case .tile(let found)? = result, found.data == MBTilesFixture.bytes(for: tile) else {
                wrong.add(1, ordering: .relaxed)
                return
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }

    @Test("Concurrent reads stay correct while the file is replaced by an identical copy", .timeLimit(.minutes(1)))
    func concurrentReadsDuringReplacement() throws {
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 2)
        let file = try fixture.write("live.mbtiles", tiles: tiles)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .zero)
        let wrong = Atomic(0)
        DispatchQueue.concurrentPerform(iterations: 2000) { index in
            if index % 400 == 0 {
                _ = try? fixture.write("live.mbtiles", tiles: tiles)  // atomic rename over the file
            }
            let tile = tiles[index % tiles.count]
            let result = try? provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z)
            guard case .tile(let found)? = result, found.data == MBTilesFixture.bytes(for: tile) else {
                wrong.add(1, ordering: .relaxed)
                return
            }
        }
        #expect(wrong.load(ordering: .relaxed) == 0)
    }

    @Test("A file replaced on disk (new inode) is picked up without restart")
    func replacedFile() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        let file = try fixture.write("layer.mbtiles", tiles: [tile], tag: 1, metadata: ["name": "first"])
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .zero)
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) == .tile(
            Tile(data: MBTilesFixture.bytes(for: tile, tag: 1), lastModified: provider.tileLastModified)))

        let next = try fixture.write("next.mbtiles", tiles: [tile], tag: 2, metadata: ["name": "second"])
        #expect(rename(next, file) == 0)  // mv next.mbtiles layer.mbtiles
        guard case .tile(let found) = try provider.tileFor(x: 0, y: 0, zoom: 0) else {
            Issue.record("tile missing after replacement")
            return
        }
        #expect(found.data == MBTilesFixture.bytes(for: tile, tag: 2))
        #expect(provider.metadata.name == "second")
    }

    @Test("The file is checked at most once per interval")
    func recheckInterval() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        let file = try fixture.write("slow.mbtiles", tiles: [tile], tag: 1)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600))
        try fixture.write("slow.mbtiles", tiles: [tile], tag: 2)
        guard case .tile(let found) = try provider.tileFor(x: 0, y: 0, zoom: 0) else {
            Issue.record("tile missing")
            return
        }
        #expect(found.data == MBTilesFixture.bytes(for: tile, tag: 1))  // still the open (old) inode
    }

    @Test("A deleted file is unavailable, and works again once restored")
    func deletedThenRestored() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        let file = try fixture.write("gone.mbtiles", tiles: [tile], tag: 1)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .zero, retryAfter: 7)
        #expect(unlink(file) == 0)
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) == .unavailable(retryAfter: 7))
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) == .unavailable(retryAfter: 7))

        try fixture.write("gone.mbtiles", tiles: [tile], tag: 3)
        guard case .tile(let found) = try provider.tileFor(x: 0, y: 0, zoom: 0) else {
            Issue.record("tile missing after restore")
            return
        }
        #expect(found.data == MBTilesFixture.bytes(for: tile, tag: 3))
    }

    @Test("A tile locked by a writer is briefly unavailable", .timeLimit(.minutes(1)))
    func lockedByWriter() throws {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("locked.mbtiles", tiles: [TileCoordinate(z: 0, x: 0, y: 0)])
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600))
        let writer = try SQLiteConnection(path: file, mode: .readWriteCreate)
        try writer.execute("BEGIN EXCLUSIVE")
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) == .unavailable(retryAfter: 1))
        try writer.execute("ROLLBACK")
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) != .unavailable(retryAfter: 1))
    }

    @Test("A file replaced by a broken one is an error until a good one returns")
    func replacedByBrokenFile() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        let file = try fixture.write("flaky.mbtiles", tiles: [tile])
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .zero)
        try Data(repeating: 0x5A, count: 4096).write(to: URL(fileURLWithPath: file))
        #expect(throws: TileProviderError.notMBTiles(path: file, reason: "not an SQLite database")) {
            try provider.tileFor(x: 0, y: 0, zoom: 0)
        }
        try fixture.write("flaky.mbtiles", tiles: [tile])
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) != .noTile)
    }
}

extension MBTilesTileProvider {
    /// The modification time the provider reports for tiles of the file on disk now.
    var tileLastModified: Int? {
        (try? FileIdentity.of(path))?.modifiedSeconds
    }
}
