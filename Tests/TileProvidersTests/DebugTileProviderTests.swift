import Testing
import TileGeometry
import TilePNG
@testable import TileProviders

@Suite struct DebugTileProviderTests {
    @Test(arguments: [256, 512])
    func drawsBorderAndLabelAtTheRequestedSize(_ size: Int) throws {
        let provider = DebugTileProvider(tileSize: size)
        guard case .tile(let tile) = try provider.tileFor(x: 3, y: 5, zoom: 4) else {
            Issue.record("expected a tile")
            return
        }
        let image = try PNGDecoder.decode(tile.data)
        #expect(image.width == size && image.height == size)
        #expect(image.pixel(x: 0, y: 0) == DebugTileProvider.ink)  // the border
        #expect(image.pixel(x: size - 1, y: size / 3) == DebugTileProvider.ink)
        #expect(image.pixel(x: size / 5, y: size / 5)?.alpha == 0)  // transparent elsewhere
        let centre = (0 ..< size).compactMap { image.pixel(x: $0, y: size / 2) }
        #expect(centre.contains(DebugTileProvider.ink))  // the label crosses the middle row
    }

    @Test func differentTilesLookDifferent() throws {
        let provider = DebugTileProvider()
        #expect(try provider.render(TileCoordinate(z: 1, x: 0, y: 0)) != provider.render(TileCoordinate(z: 1, x: 1, y: 0)))
        #expect(try provider.render(TileCoordinate(z: 1, x: 0, y: 0)) == provider.render(TileCoordinate(z: 1, x: 0, y: 0)))
    }
}
