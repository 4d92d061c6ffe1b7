import Foundation
import Testing
@testable import TileProviders

/// The real Blue Marble file: shared beside the clone (`../shared/data/`), and the trimmed copy in `tiles/`.
@Suite("MBTiles Blue Marble")
struct MBTilesBlueMarbleTests {
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
    static let sharedFile = packageRoot.deletingLastPathComponent()
        .appendingPathComponent("shared/data/bluemarble.mbtiles").path
    static let shippedFile = packageRoot.appendingPathComponent("tiles/bluemarble.mbtiles").path
    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    @Test("Shared file: 0/0/0 is a PNG, zooms 0 to 4", .enabled(if: FileManager.default.fileExists(atPath: sharedFile)))
    func sharedCopy() throws {
        let provider = try MBTilesTileProvider(path: Self.sharedFile)
        #expect(provider.metadata.minZoom == 0)
        #expect(provider.metadata.maxZoom == 4)
        #expect(provider.metadata.name == "bluemarble")
        #expect(provider.metadata.bounds?.west == -180)
        guard case .tile(let tile) = try provider.tileFor(x: 0, y: 0, zoom: 0) else {
            Issue.record("0/0/0 missing")
            return
        }
        #expect(Array(tile.data.prefix(8)) == Self.pngSignature)
        #expect(try provider.tileFor(x: 15, y: 15, zoom: 4) != .noTile)
    }

    @Test("Shipped copy: zooms 0 to 2", .enabled(if: FileManager.default.fileExists(atPath: shippedFile)))
    func shippedCopy() throws {
        let provider = try MBTilesTileProvider(path: Self.shippedFile)
        #expect(provider.metadata.minZoom == 0)
        #expect(provider.metadata.maxZoom == 2)
        guard case .tile(let tile) = try provider.tileFor(x: 3, y: 0, zoom: 2) else {
            Issue.record("2/3/0 missing")
            return
        }
        #expect(Array(tile.data.prefix(8)) == Self.pngSignature)
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 3) == .noTile)
    }
}
