import Testing
import TileGeometry

@Suite("TileCoordinate")
struct TileCoordinateTests {
    @Test("normalized wraps x and rejects y or z out of range", arguments: [
        (TileCoordinate(z: 2, x: 4, y: 1), TileCoordinate(z: 2, x: 0, y: 1)),
        (TileCoordinate(z: 2, x: -1, y: 1), TileCoordinate(z: 2, x: 3, y: 1)),
        (TileCoordinate(z: 3, x: 17, y: 7), TileCoordinate(z: 3, x: 1, y: 7)),
        (TileCoordinate(z: 3, x: -9, y: 0), TileCoordinate(z: 3, x: 7, y: 0)),
        (TileCoordinate(z: 0, x: 5, y: 0), TileCoordinate(z: 0, x: 0, y: 0)),
        (TileCoordinate(z: 2, x: 1, y: 4), nil),
        (TileCoordinate(z: 2, x: 1, y: -1), nil),
        (TileCoordinate(z: -1, x: 0, y: 0), nil),
        (TileCoordinate(z: 31, x: 0, y: 0), nil),
    ] as [(TileCoordinate, TileCoordinate?)])
    func normalized(tile: TileCoordinate, expected: TileCoordinate?) {
        #expect(tile.normalized() == expected)
    }

    @Test("isInGrid: z in 0...30, x and y in 0..<2^z, no wrapping", arguments: [
        (TileCoordinate(z: 0, x: 0, y: 0), true),
        (TileCoordinate(z: 2, x: 3, y: 3), true),
        (TileCoordinate(z: 30, x: (1 << 30) - 1, y: 0), true),
        (TileCoordinate(z: 2, x: 4, y: 1), false),
        (TileCoordinate(z: 2, x: -1, y: 1), false),
        (TileCoordinate(z: 2, x: 1, y: 4), false),
        (TileCoordinate(z: -1, x: 0, y: 0), false),
        (TileCoordinate(z: 31, x: 0, y: 0), false),
    ] as [(TileCoordinate, Bool)])
    func isInGrid(tile: TileCoordinate, expected: Bool) {
        #expect(tile.isInGrid == expected)
    }

    @Test("TMS rows count from the south", arguments: [(0, 0, 0), (1, 0, 1), (3, 5, 2), (3, 0, 7), (10, 1023, 0)])
    func tmsY(z: Int, y: Int, expected: Int) {
        #expect(TileCoordinate(z: z, x: 0, y: y).tmsY == expected)
    }

    @Test("Bing quadkeys", arguments: [
        (TileCoordinate(z: 3, x: 3, y: 5), "213"),   // the Bing Maps Tile System article's example
        (TileCoordinate(z: 0, x: 0, y: 0), ""),
        (TileCoordinate(z: 1, x: 1, y: 0), "1"),
        (TileCoordinate(z: 1, x: 0, y: 1), "2"),
        (TileCoordinate(z: 2, x: 3, y: 3), "33"),
        (TileCoordinate(z: 4, x: 0, y: 15), "2222"),
    ])
    func quadkey(tile: TileCoordinate, expected: String) {
        #expect(tile.quadkey == expected)
    }

    @Test("children: NW, NE, SW, SE of the next zoom")
    func children() {
        #expect(TileCoordinate(z: 1, x: 1, y: 0).children == [
            TileCoordinate(z: 2, x: 2, y: 0), TileCoordinate(z: 2, x: 3, y: 0),
            TileCoordinate(z: 2, x: 2, y: 1), TileCoordinate(z: 2, x: 3, y: 1),
        ])
        #expect(TileCoordinate(z: 3, x: 3, y: 5).description == "3/3/5")
    }

    /// Decodes a quadkey back into a tile (the inverse the Bing article describes).
    func tile(fromQuadkey key: String) -> TileCoordinate {
        var x = 0, y = 0
        for character in key {
            let digit = Int(String(character))!
            x = x << 1 | digit & 1
            y = y << 1 | digit >> 1
        }
        return TileCoordinate(z: key.count, x: x, y: y)
    }

    @Test("every tile of zooms 0…6: quadkey, TMS, normalized and children round trip", arguments: 0...6)
    func exhaustive(z: Int) {
        let side = TileCoordinate.tilesPerSide(atZoom: z)
        var keys = Set<String>()
        for x in 0..<side {
            for y in 0..<side {
                let expected = TileCoordinate(z: z, x: x, y: y)
                let key = expected.quadkey
                #expect(key.count == z)
                #expect(tile(fromQuadkey: key) == expected)
                keys.insert(key)
                var flipped = expected
                flipped.y = expected.tmsY
                #expect(flipped.tmsY == y)
                #expect(expected.normalized() == expected)
                #expect(TileCoordinate(z: z, x: x + side, y: y).normalized() == expected)
                #expect(TileCoordinate(z: z, x: x - 3 * side, y: y).normalized() == expected)
                for child in expected.children {
                    #expect(child.z == z + 1 && child.x / 2 == x && child.y / 2 == y)
                    #expect(child.quadkey.hasPrefix(key))
                }
                #expect(Set(expected.children).count == 4)
            }
        }
        #expect(keys.count == side * side)
    }
}
