import Foundation
import Testing
@testable import TileProviders

/// The Blue Marble file shipped in `tiles/` (a trimmed copy, zooms 0 to 2). It is part of the
/// repository, so its absence is a failure; no test reads the larger copy outside the repository.
@Suite("MBTiles Blue Marble")
struct MBTilesBlueMarbleTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let shippedFile = packageRoot.appendingPathComponent("tiles/bluemarble.mbtiles").path
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test("Shipped copy: zooms 0 to 2")
    func shippedCopy() throws {
        let provider = try MBTilesTileProvider(path: Self.shippedFile)
        #expect(provider.metadata.minZoom == 0)
        #expect(provider.metadata.maxZoom == 2)
        #expect(provider.metadata.name == "bluemarble")
        #expect(provider.metadata.bounds?.west == -180)
        guard case .tile(let tile) = try provider.tileFor(x: 3, y: 0, zoom: 2) else {
            Issue.record("2/3/0 missing")
            return
        }
        #expect(Array(tile.data.prefix(8)) == Self.pngSignature)
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 3) == .noTile)
    }
}
