import Foundation

extension GeoBounds {
    /// Column and row ranges of the tiles of `zoom` meeting the box: two column ranges when the
    /// box crosses the antimeridian (west > east). Latitudes beyond the Mercator square are clamped.
    public func tileRanges(atZoom zoom: Int) -> [(xs: ClosedRange<Int>, ys: ClosedRange<Int>)] {
        let side = TileCoordinate.tilesPerSide(atZoom: zoom)
        func column(_ longitude: Double, upper: Bool) -> Int {
            let x = (longitude + 180) / Coordinate.degreesPerTurn * Double(side)  // no wrap: 180 is the east edge
            return min(side - 1, max(0, upper ? Int(x.rounded(.up)) - 1 : Int(x.rounded(.down))))
        }
        func row(_ latitude: Double, upper: Bool) -> Int {
            let clamped = min(WebMercator.maxLatitude, max(-WebMercator.maxLatitude, latitude))
            let y = MercatorPoint(Coordinate(latitude: clamped, longitude: 0)).y * Double(side)
            return min(side - 1, max(0, upper ? Int(y.rounded(.up)) - 1 : Int(y.rounded(.down))))
        }
        let top = row(north, upper: false)
        let ys = top ... max(top, row(south, upper: true))
        let spans = west <= east ? [(west, east)] : [(west, 180.0), (-180.0, east)]
        return spans.map { west, east in
            let first = column(west, upper: false)
            return (first ... max(first, column(east, upper: true)), ys)
        }
    }
}
