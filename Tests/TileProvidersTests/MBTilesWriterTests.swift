import Foundation
import Testing
import TileGeometry
@testable import TileProviders

@Suite("MBTiles writer")
struct MBTilesWriterTests {
    @Test("The sqlite3 tool reads the schema, application_id and TMS rows")
    func readBySQLiteTool() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 2, x: 1, y: 0)  // XYZ row 0 is TMS row 3
        let file = try fixture.write("tool.mbtiles", tiles: [tile, TileCoordinate(z: 0, x: 0, y: 0)],
                                     metadata: ["name": "tool", "attribution": "me"])
        #expect(try MBTilesFixture.sqlite3(file, "PRAGMA application_id") == "\(0x4d50_4258)\n")
        #expect(try MBTilesFixture.sqlite3(
            file, "SELECT zoom_level, tile_column, tile_row, length(tile_data) FROM tiles ORDER BY zoom_level")
            == "0|0|0|300\n2|1|3|300\n")
        #expect(try MBTilesFixture.sqlite3(file, "SELECT hex(tile_data) FROM tiles WHERE zoom_level = 2")
            == MBTilesFixture.bytes(for: tile).map { String(format: "%02X", $0) }.joined() + "\n")
        #expect(try MBTilesFixture.sqlite3(file, "SELECT name, value FROM metadata ORDER BY name")
            == "attribution|me\nformat|png\nmaxzoom|2\nminzoom|0\nname|tool\n")
        #expect(try MBTilesFixture.sqlite3(file, "PRAGMA index_list(tiles)").contains("|tile_index|1|"))
        #expect(try MBTilesFixture.sqlite3(file, "PRAGMA integrity_check") == "ok\n")
    }

    @Test("Nothing appears at the path before finish, and cancel leaves nothing behind")
    func atomic() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("atomic.mbtiles")
        let writer = try MBTilesWriter(path: file, batchSize: 2)
        for tile in MBTilesFixture.pyramid(0 ... 2) { try writer.write(tile: tile, data: [1, 2, 3]) }
        #expect(writer.tileCount == 21)
        #expect(!FileManager.default.fileExists(atPath: file))
        writer.cancel()
        #expect(!FileManager.default.fileExists(atPath: file))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder).isEmpty)
    }

    @Test("finish replaces an existing file in one step, and leaves no temporary file")
    func replacesExisting() throws {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("same.mbtiles", tiles: [TileCoordinate(z: 0, x: 0, y: 0)], tag: 1)
        try fixture.write("same.mbtiles", tiles: [TileCoordinate(z: 0, x: 0, y: 0)], tag: 2)
        let result = try MBTilesTileProvider(path: file).tileFor(x: 0, y: 0, zoom: 0)
        guard case .tile(let found) = result else {
            Issue.record("missing tile")
            return
        }
        #expect(found.data == MBTilesFixture.bytes(for: TileCoordinate(z: 0, x: 0, y: 0), tag: 2))
        #expect(try FileManager.default.contentsOfDirectory(atPath: fixture.folder) == ["same.mbtiles"])
    }

    @Test("Metadata set as a value is read back by the provider")
    func metadataRoundTrip() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("meta.mbtiles")
        let writer = try MBTilesWriter(path: file)
        let metadata = MBTilesMetadata(
            name: "seeded", format: "png", bounds: GeoBounds(west: -10, south: 35, east: 30, north: 60),
            center: .init(longitude: 10, latitude: 50, zoom: 4), attribution: "© us", description: "from seed")
        try writer.setMetadata(metadata)
        try writer.write(tile: TileCoordinate(z: 3, x: 4, y: 2), data: [9])
        try writer.write(tile: TileCoordinate(z: 5, x: 16, y: 10), data: [])
        try writer.finish()
        var expected = metadata
        expected.minZoom = 3
        expected.maxZoom = 5
        var read = try MBTilesTileProvider(path: file).metadata
        read.values = [:]
        #expect(read == expected)
        let provider = try MBTilesTileProvider(path: file)
        #expect(try provider.tileFor(x: 16, y: 10, zoom: 5)
            == .tile(Tile(data: [], lastModified: provider.tileLastModified)))
    }

    @Test("A tile outside the grid is refused")
    func outsideGrid() throws {
        let fixture = try MBTilesFixture()
        let writer = try MBTilesWriter(path: fixture.path("grid.mbtiles"))
        #expect(throws: TileProviderError.self) { try writer.write(tile: TileCoordinate(z: 1, x: 2, y: 0), data: [1]) }
        writer.cancel()
    }
}
