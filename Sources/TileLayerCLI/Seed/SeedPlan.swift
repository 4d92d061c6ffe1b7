import TileGeometry
import TileServer

/// The tiles a seed asks for: a bbox over a zoom range, or the tiles of a camera view, at one
/// or two scales. Counted without listing them; listed lazily.
struct SeedPlan: Sendable {
    /// Where.
    enum Area: Sendable {
        /// Every tile meeting the box at each zoom of the range.
        case bbox(GeoBounds, zooms: ClosedRange<Int>)
        /// Exactly these tiles (a view's, from `ViewTiles`).
        case tiles([TileCoordinate], bounds: GeoBounds)
    }

    let area: Area
    /// 1, 2 or both.
    let scales: [Int]

    /// Tiles × scales.
    var count: Int {
        switch area {
        case .bbox(let box, let zooms): return zooms.reduce(0) { $0 + Self.ranges(box, zoom: $1).tileCount } * scales.count
        case .tiles(let tiles, _): return tiles.count * scales.count
        }
    }

    /// The box the tiles cover (MBTiles `bounds`).
    var bounds: GeoBounds {
        switch area {
        case .bbox(let box, _): return box
        case .tiles(_, let bounds): return bounds
        }
    }

    /// The zooms of the tiles.
    var zooms: ClosedRange<Int>? {
        switch area {
        case .bbox(_, let zooms): return zooms
        case .tiles(let tiles, _):
            guard let low = tiles.map(\.z).min(), let high = tiles.map(\.z).max() else { return nil }
            return low ... high
        }
    }

    /// Every (tile, scale), zoom by zoom, row by row.
    func jobs() -> AnyIterator<(tile: TileCoordinate, scale: Int)> {
        let tiles: AnyIterator<TileCoordinate>
        switch area {
        case .tiles(let list, _):
            tiles = AnyIterator(list.makeIterator())
        case .bbox(let box, let zooms):
            tiles = AnyIterator(zooms.lazy.flatMap { zoom in
                Self.ranges(box, zoom: zoom).lazy.flatMap { ranges in
                    ranges.ys.lazy.flatMap { y in ranges.xs.lazy.map { x in TileCoordinate(z: zoom, x: x, y: y) } }
                }
            }.makeIterator())
        }
        var pending: [(tile: TileCoordinate, scale: Int)] = []
        return AnyIterator {
            if pending.isEmpty, let tile = tiles.next() { pending = scales.reversed().map { (tile, $0) } }
            return pending.popLast()
        }
    }

    /// Column and row ranges of the tiles of `zoom` meeting `box` (see `GeoBounds.tileRanges(atZoom:)`).
    static func ranges(_ box: GeoBounds, zoom: Int) -> [(xs: ClosedRange<Int>, ys: ClosedRange<Int>)] {
        box.tileRanges(atZoom: zoom)
    }
}

extension ClosedRange where Bound == Int {
    var size: Int { upperBound - lowerBound + 1 }
}

extension Array where Element == (xs: ClosedRange<Int>, ys: ClosedRange<Int>) {
    /// Tiles in all the ranges.
    var tileCount: Int { reduce(0) { $0 + $1.xs.size * $1.ys.size } }
}
