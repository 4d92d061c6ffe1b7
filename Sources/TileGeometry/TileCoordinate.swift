// TileGeometry: Web Mercator (EPSG:3857) tile grid and camera math. Pure values, no I/O.

/// A tile of the Web Mercator XYZ grid: (0,0) at the north-west, x east, y south.
public struct TileCoordinate: Sendable, Hashable, CustomStringConvertible {
    /// Zoom level; the grid has 2^z × 2^z tiles.
    public var z: Int
    /// Column, counted east from the antimeridian.
    public var x: Int
    /// Row, counted south from the north edge (XYZ, not TMS).
    public var y: Int

    /// A tile coordinate.
    public init(z: Int, x: Int, y: Int) {
        self.z = z
        self.x = x
        self.y = y
    }

    /// Deepest zoom accepted anywhere (2^30 tiles a side still fits an Int comfortably).
    public static let maxZoom = 30

    /// Tiles along one side of the grid at `z`.
    public static func tilesPerSide(atZoom z: Int) -> Int { 1 << z }

    public var description: String { "\(z)/\(x)/\(y)" }

    /// The same tile with x wrapped into [0, 2^z) (the map repeats east and west);
    /// nil when y is outside [0, 2^z) or z outside [0, maxZoom].
    public func normalized() -> TileCoordinate? {
        guard z >= 0, z <= Self.maxZoom else { return nil }
        let side = Self.tilesPerSide(atZoom: z)
        guard y >= 0, y < side else { return nil }
        let wrapped = ((x % side) + side) % side
        return TileCoordinate(z: z, x: wrapped, y: y)
    }

    /// Whether the tile is on its zoom's grid: z in [0, maxZoom], x and y in [0, 2^z).
    public var isInGrid: Bool {
        guard z >= 0, z <= Self.maxZoom else { return false }
        let side = Self.tilesPerSide(atZoom: z)
        return (0 ..< side).contains(x) && (0 ..< side).contains(y)
    }

    /// The row in TMS numbering (y counted from the south), as MBTiles stores it.
    public var tmsY: Int { Self.tilesPerSide(atZoom: z) - 1 - y }

    /// The Bing Maps quadkey of this tile ("" at zoom 0).
    public var quadkey: String {
        var key = ""
        for level in stride(from: z, to: 0, by: -1) {
            let mask = 1 << (level - 1)
            var digit = 0
            if x & mask != 0 { digit += 1 }
            if y & mask != 0 { digit += 2 }
            key.append(Character(String(digit)))
        }
        return key
    }

    /// The four tiles of zoom z+1 that cover this one: NW, NE, SW, SE.
    public var children: [TileCoordinate] {
        [TileCoordinate(z: z + 1, x: 2 * x, y: 2 * y), TileCoordinate(z: z + 1, x: 2 * x + 1, y: 2 * y),
         TileCoordinate(z: z + 1, x: 2 * x, y: 2 * y + 1), TileCoordinate(z: z + 1, x: 2 * x + 1, y: 2 * y + 1)]
    }
}
