import Foundation
import Testing
import TileGeometry
import TestThreads
@testable import TileServer

/// A disk-tier clear and the writes queued around it are ordered: after the clear returns, no
/// write from before it lands in the folder.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct DiskClearOrderTests {
    let folder = TemporaryFolder()

    func files(under path: String) -> [String] {
        (FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []).filter { $0.hasSuffix(".tile") }
    }

    @Test func noWriteQueuedBeforeAClearLandsAfterIt() async throws {
        for round in 0 ..< 20 {
            let tier = LayerDiskTier(folder: folder.path + "/\(round)", layer: "t")
            let generation = tier.generation
            let tile = TileOutcome.tile(ServedTile(body: Array(repeating: 7, count: 4096), lastModified: nil))
            for x in 0 ..< 64 {
                tier.storeLater(tile, for: TileKey(layer: "t", tile: TileCoordinate(z: 6, x: x, y: 1), scale: 1),
                                generation: generation, writer: 0, logger: Fixtures.logger)
            }
            _ = tier.clear(where: nil)
            await tier.waitForWrites()
            #expect(files(under: tier.store.root).isEmpty, "round \(round)")
        }
    }

    @Test func aTierOwnedByANewBuildDropsTheOldBuildsWrites() async throws {
        let tier = LayerDiskTier(folder: folder.path, layer: "t")
        tier.adopt(owner: 2)
        let key = TileKey(layer: "t", tile: TileCoordinate(z: 1, x: 0, y: 0), scale: 1)
        tier.storeLater(.noTile, for: key, generation: tier.generation, writer: 1, logger: Fixtures.logger)
        await tier.waitForWrites()
        #expect(files(under: tier.store.root).isEmpty)
        tier.storeLater(.noTile, for: key, generation: tier.generation, writer: 2, logger: Fixtures.logger)
        await tier.waitForWrites()
        #expect(files(under: tier.store.root).count == 1)
    }
}
