// PMTiles v3 §"Tile IDs": tiles are numbered zoom by zoom, and within a zoom along a Hilbert
// curve, so that neighbouring tiles sit close together in the archive.

/// The PMTiles tile id of z/x/y, and back.
public enum PMTilesTileID {
    /// Highest zoom whose ids fit in 64 bits.
    public static let maxZoom = 31

    /// The number of tiles on all zoom levels below `zoom`: the id of `zoom`/0/0's curve start.
    static func firstID(ofZoom zoom: Int) -> UInt64 {
        ((UInt64(1) << UInt64(2 * zoom)) - 1) / 3
    }

    /// The id of `zoom`/`x`/`y`; nil when the tile is outside the zoom's grid.
    public static func id(zoom: Int, x: Int, y: Int) -> UInt64? {
        guard zoom >= 0, zoom <= maxZoom else { return nil }
        let side = 1 << zoom
        guard (0 ..< side).contains(x), (0 ..< side).contains(y) else { return nil }
        var (tx, ty) = (x, y)
        var distance: UInt64 = 0
        var s = side / 2
        while s > 0 {
            let rx = (tx & s) != 0 ? 1 : 0
            let ry = (ty & s) != 0 ? 1 : 0
            distance += UInt64(s) * UInt64(s) * UInt64((3 * rx) ^ ry)
            rotate(s, &tx, &ty, rx, ry)
            s /= 2
        }
        return firstID(ofZoom: zoom) + distance
    }

    /// The z/x/y of `id`.
    public static func coordinate(of id: UInt64) -> (zoom: Int, x: Int, y: Int) {
        var zoom = 0
        while zoom < maxZoom, firstID(ofZoom: zoom + 1) <= id { zoom += 1 }
        var t = id - firstID(ofZoom: zoom)
        var (x, y) = (0, 0)
        var s = 1
        while s < 1 << zoom {
            let rx = Int(1 & (t / 2))
            let ry = Int(1 & (t ^ UInt64(rx)))
            rotate(s, &x, &y, rx, ry)
            x += s * rx
            y += s * ry
            t /= 4
            s *= 2
        }
        return (zoom, x, y)
    }

    /// The Hilbert curve's quadrant rotation.
    private static func rotate(_ n: Int, _ x: inout Int, _ y: inout Int, _ rx: Int, _ ry: Int) {
        guard ry == 0 else { return }
        if rx == 1 {
            x = n - 1 - x
            y = n - 1 - y
        }
        swap(&x, &y)
    }
}
