import Testing
@testable import TileProviders

@Suite("PMTiles tile ids")
struct PMTilesTileIDTests {
    // The spec's test vectors (PMTiles v3 §"Tile IDs").
    @Test("z/x/y → id", arguments: [
        (0, 0, 0, UInt64(0)), (1, 0, 0, 1), (1, 0, 1, 2), (1, 1, 1, 3), (1, 1, 0, 4), (2, 0, 0, 5),
        (12, 3423, 1763, 19_078_479),
    ])
    func vectors(zoom: Int, x: Int, y: Int, id: UInt64) {
        #expect(PMTilesTileID.id(zoom: zoom, x: x, y: y) == id)
        let back = PMTilesTileID.coordinate(of: id)
        #expect(back.zoom == zoom && back.x == x && back.y == y)
    }

    @Test("Every tile of zooms 0–8 round-trips, and ids are dense and ordered by zoom")
    func exhaustive() {
        var seen = Set<UInt64>()
        for zoom in 0 ... 8 {
            let side = 1 << zoom
            for x in 0 ..< side {
                for y in 0 ..< side {
                    guard let id = PMTilesTileID.id(zoom: zoom, x: x, y: y) else {
                        Issue.record("no id for \(zoom)/\(x)/\(y)")
                        return
                    }
                    let back = PMTilesTileID.coordinate(of: id)
                    #expect(back.zoom == zoom && back.x == x && back.y == y)
                    seen.insert(id)
                }
            }
        }
        // 1 + 4 + … + 4^8 tiles numbered 0 ..< (4^9 - 1) / 3 with no gap.
        #expect(seen == Set(0 ..< UInt64(((1 << 18) - 1) / 3)))
    }

    @Test("Tiles outside the grid have no id")
    func outside() {
        #expect(PMTilesTileID.id(zoom: 1, x: 2, y: 0) == nil)
        #expect(PMTilesTileID.id(zoom: 1, x: 0, y: -1) == nil)
        #expect(PMTilesTileID.id(zoom: -1, x: 0, y: 0) == nil)
        #expect(PMTilesTileID.id(zoom: 32, x: 0, y: 0) == nil)
    }
}
