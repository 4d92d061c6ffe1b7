#if os(Linux)
import Testing
@testable import TileServer

/// A tile the memory cache keeps: its bytes move to the body arena, its validators stay.
@Suite struct ServedTileArenaTests {
    @Test func aCachedTileKeepsItsETagAndBytesInTheArena() throws {
        let body = Fixtures.worldTile(1, 0, 0)
        let tile = ServedTile(body: body, lastModified: 1_700_000_000)
        let kept = tile.keptInArena()
        #expect(kept.kept != nil && kept.etag == tile.etag && kept.lastModified == tile.lastModified)
        #expect(Bool(kept.body == body) && kept.byteCount == body.count)
        #expect(kept.memoryBytes == (body.count + 4095) / 4096 * 4096)
        #expect(kept.keptInArena().kept === kept.kept, "moving twice copies nothing")
    }
}
#endif
