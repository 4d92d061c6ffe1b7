#if os(Linux)
import Testing
@testable import TileServer

/// A tile the memory cache keeps: its bytes move to the body arena, its validators stay.
@Suite struct ServedTileArenaTests {
    @Test func aCachedTileKeepsItsETagAndBytesInTheArena() throws {
        let body = Fixtures.worldTile(1, 0, 0)
        let tile = ServedTile(body: body, lastModified: 1_700_000_000)
        let kept = tile.keptInArena()
        guard case .file(let region) = kept.sentBody else {
            Issue.record("a kept tile is sent from the arena's memory file")
            return
        }
        #expect(kept.etag == tile.etag && kept.lastModified == tile.lastModified)
        #expect(Bool(kept.body == body) && kept.byteCount == body.count && region.count == body.count)
        #expect(kept.memoryBytes == (body.count + 4095) / 4096 * 4096)
        guard case .file(let again) = kept.keptInArena().sentBody else { return }
        #expect(ObjectIdentifier(again.owner) == ObjectIdentifier(region.owner), "moving twice copies nothing")
    }
}
#endif
