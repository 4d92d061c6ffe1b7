import Testing
import TileGeometry
@testable import TileProviders

@Suite("MBTiles metadata")
struct MBTilesMetadataTests {
    @Test("Parses the rows TileJSON needs")
    func parsesRows() throws {
        let metadata = try MBTilesMetadata(parsing: [
            "name": "Blue", "format": "PNG", "bounds": "-180.0, -85.05, 180, 85.05", "center": "0,20,2",
            "minzoom": "0", "maxzoom": " 4", "attribution": "NASA", "description": "d", "type": "baselayer",
        ], path: "x.mbtiles")
        #expect(metadata.name == "Blue")
        #expect(metadata.format == "png")
        #expect(metadata.bounds == GeoBounds(west: -180, south: -85.05, east: 180, north: 85.05))
        #expect(metadata.center == .init(longitude: 0, latitude: 20, zoom: 2))
        #expect(metadata.minZoom == 0)
        #expect(metadata.maxZoom == 4)
        #expect(metadata.attribution == "NASA")
        #expect(metadata.description == "d")
        #expect(metadata.values["type"] == "baselayer")
    }

    @Test("Absent rows are nil")
    func absentRows() throws {
        let metadata = try MBTilesMetadata(parsing: [:], path: "x.mbtiles")
        #expect(metadata == MBTilesMetadata())
    }

    @Test("Malformed values name the key", arguments: [
        ("bounds", "-180,-85,180"), ("bounds", "a,b,c,d"), ("bounds", "1,2,3,4,5"), ("center", "0,0"),
        ("center", "0,0,2.5"), ("minzoom", "low"), ("maxzoom", "-1"), ("maxzoom", "99"),
    ])
    func malformed(key: String, value: String) {
        #expect(throws: TileProviderError.invalidMetadata(path: "x.mbtiles", key: key, value: value)) {
            try MBTilesMetadata(parsing: [key: value], path: "x.mbtiles")
        }
    }

    @Test("Encoded values parse back to the same metadata")
    func encodeRoundTrip() throws {
        let metadata = MBTilesMetadata(
            name: "n", format: "png", bounds: GeoBounds(west: -10.5, south: 35, east: 30, north: 60.25),
            center: .init(longitude: 5.5, latitude: 47, zoom: 3), minZoom: 1, maxZoom: 9, attribution: "a",
            description: "d", values: ["type": "overlay"])
        var parsed = try MBTilesMetadata(parsing: metadata.encodedValues, path: "x")
        parsed.values = metadata.values
        #expect(parsed == metadata)
    }

    @Test("Without minzoom and maxzoom rows the zoom range comes from the tiles")
    func zoomRangeFromTiles() throws {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("zooms.mbtiles", tiles: MBTilesFixture.pyramid(2 ... 3))
        try fixture.execute("DELETE FROM metadata WHERE name IN ('minzoom', 'maxzoom')", on: file)
        let metadata = try MBTilesTileProvider(path: file).metadata
        #expect(metadata.minZoom == 2)
        #expect(metadata.maxZoom == 3)
        #expect(metadata.values["minzoom"] == nil)
    }
}
