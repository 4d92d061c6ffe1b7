import Foundation
import Testing
@testable import TileProviders

@Suite("MBTiles start-up errors")
struct MBTilesStartupErrorTests {
    @Test("A missing file names the path")
    func missingFile() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("absent.mbtiles")
        #expect(throws: TileProviderError.fileNotFound(path: file)) { try MBTilesTileProvider(path: file) }
        #expect(TileProviderError.fileNotFound(path: file).description == "\(file) does not exist")
    }

    @Test("Random bytes are not an SQLite database")
    func corruptFile() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("random.mbtiles")
        var generator = SystemRandomNumberGenerator()
        let bytes = (0 ..< 8192).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        try Data(bytes).write(to: URL(fileURLWithPath: file))
        let error = TileProviderError.notMBTiles(path: file, reason: "not an SQLite database")
        #expect(throws: error) { try MBTilesTileProvider(path: file) }
        #expect(error.description == "\(file) is not an MBTiles file: not an SQLite database")
    }

    @Test("An SQLite database without a tiles table is not MBTiles")
    func noTilesTable() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("other.sqlite")
        try fixture.execute("CREATE TABLE metadata (name TEXT, value TEXT); CREATE TABLE things (id INTEGER)", on: file)
        let error = TileProviderError.notMBTiles(path: file, reason: "no tiles table")
        #expect(throws: error) { try MBTilesTileProvider(path: file) }
        #expect(error.description == "\(file) is not an MBTiles file: no tiles table")
    }

    @Test("An empty file is not MBTiles")
    func emptyFile() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("empty.mbtiles")
        #expect(FileManager.default.createFile(atPath: file, contents: Data()))
        #expect(throws: TileProviderError.notMBTiles(path: file, reason: "no tiles table")) {
            try MBTilesTileProvider(path: file)
        }
    }

    @Test("A tiles table without a metadata table is not MBTiles")
    func noMetadataTable() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("bare.mbtiles")
        try fixture.execute(
            "CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB)", on: file)
        #expect(throws: TileProviderError.notMBTiles(path: file, reason: "no metadata table")) {
            try MBTilesTileProvider(path: file)
        }
    }

    @Test("A tiles view is accepted")
    func tilesView() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("view.mbtiles")
        try fixture.execute(MBTilesFixture.deduplicatingLayout + """
            INSERT INTO map VALUES (0, 0, 0, 'a');
            INSERT INTO images VALUES ('a', x'89504E47');
            """, on: file)
        #expect(try MBTilesTileProvider(path: file).tileFor(x: 0, y: 0, zoom: 0) == .tile(
            Tile(data: [0x89, 0x50, 0x4E, 0x47], lastModified: (try? FileIdentity.of(file))?.modifiedSeconds)))
    }

    @Test("Tiles in a format tilelayer does not serve are refused; png, jpg, jpeg, webp, pbf are served")
    func unsupportedFormat() throws {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("photo.mbtiles", tiles: [], metadata: ["format": "tiff"])
        #expect(throws: TileProviderError.unsupportedFormat(path: file, format: "tiff")) {
            try MBTilesTileProvider(path: file)
        }
        for (name, format) in [("png", TileFormat.png), ("jpg", .jpg), ("JPEG", .jpg), ("webp", .webp), ("pbf", .pbf)] {
            let served = try fixture.write("\(name).mbtiles", tiles: [], metadata: ["format": name])
            #expect(try MBTilesTileProvider(path: served).metadata.tileFormat == format, "\(name)")
        }
    }

    @Test("Malformed metadata is a start-up error naming the key")
    func malformedMetadata() throws {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("bad.mbtiles", tiles: [], metadata: ["bounds": "everywhere"])
        #expect(throws: TileProviderError.invalidMetadata(path: file, key: "bounds", value: "everywhere")) {
            try MBTilesTileProvider(path: file)
        }
    }
}
