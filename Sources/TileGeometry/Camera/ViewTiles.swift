import Foundation

/// The ground a view shows and the tiles needed to draw it.
///
/// The visible ground is the image of the screen rectangle below `ViewProjection.groundTopY`: a
/// perspective maps straight lines to straight lines, so it is exactly the convex quadrilateral of
/// the four projected corners. Tilt makes it a trapezoid wider at the far (top) edge, so a tilted
/// view needs more tiles further away; bearing turns it. Tiles are all those of one zoom whose
/// squares meet the quadrilateral.
public struct ViewTiles: Sendable {
    /// Ground corners on the unit Mercator plane (x not wrapped): top-left, top-right,
    /// bottom-right, bottom-left of the drawn part of the screen; empty when no ground is visible.
    public let corners: [MercatorPoint]
    /// The camera target, where an empty view is anchored.
    let anchor: MercatorPoint

    /// The visible ground of `projection`.
    public init(projection: ViewProjection) {
        let viewport = projection.viewport
        let top = projection.groundTopY
        let points = [ScreenPoint(x: 0, y: top), ScreenPoint(x: viewport.width, y: top),
                      ScreenPoint(x: viewport.width, y: viewport.height), ScreenPoint(x: 0, y: viewport.height)]
        let ground = points.compactMap(projection.screenToMercator)
        corners = ground.count == points.count && top < viewport.height ? ground : []
        anchor = projection.camera.mercatorTarget
    }

    /// The visible ground of `camera` in `viewport`.
    public init(camera: Camera, viewport: Viewport) {
        self.init(projection: ViewProjection(camera: camera, viewport: viewport))
    }

    /// The integer zoom whose tiles draw a view at `zoom`: floor(zoom) (tiles are drawn at 1× to
    /// just under 2×, never shrunk), clamped to the layer's whole zoom levels. A zoom within 1e-9
    /// below an integer counts as that integer, so a fitted zoom of 5.9999999999 uses zoom 6.
    public static func tileZoom(forZoom zoom: Double, limits: CameraLimits = .none) -> Int {
        let range = limits.tileZoomRange
        let level = Int((zoom + integerTolerance).rounded(.down))
        return min(max(level, range.lowerBound), min(range.upperBound, TileCoordinate.maxZoom))
    }

    static let integerTolerance = 1e-9

    /// West, south, east, north of the visible ground. Latitudes are clamped to the Mercator square;
    /// a view showing the whole width of the world gives -180 … 180; otherwise west is in
    /// [-180, 180) and a box crossing the antimeridian has west > east (RFC 7946 §5.2).
    /// An empty view gives a box of zero size at the target.
    public var bounds: GeoBounds {
        let points = corners.isEmpty ? [anchor] : corners
        let minX = points.map(\.x).min()!, maxX = points.map(\.x).max()!
        let minY = points.map(\.y).min()!, maxY = points.map(\.y).max()!
        let north = Coordinate.clampedLatitude(MercatorPoint(x: 0, y: minY).coordinate.latitude)
        let south = Coordinate.clampedLatitude(MercatorPoint(x: 0, y: maxY).coordinate.latitude)
        let half = Coordinate.degreesPerTurn / 2
        if maxX - minX >= 1 { return GeoBounds(west: -half, south: south, east: half, north: north) }
        let west = Coordinate.wrappedLongitude(MercatorPoint(x: minX, y: 0).coordinate.longitude)
        var east = west + (maxX - minX) * Coordinate.degreesPerTurn
        if east > half { east -= Coordinate.degreesPerTurn }
        return GeoBounds(west: west, south: south, east: east, north: north)
    }

    /// The tiles of zoom `z` that meet the visible ground, row by row from north to south and west to
    /// east within a row; x wraps across the antimeridian (each tile once), rows outside the grid are
    /// left out.
    public func tiles(atZoom z: Int) -> [TileCoordinate] {
        guard !corners.isEmpty, z >= 0, z <= TileCoordinate.maxZoom else { return [] }
        let side = TileCoordinate.tilesPerSide(atZoom: z)
        let scale = Double(side)
        let polygon = corners.map { MercatorPoint(x: $0.x * scale, y: $0.y * scale) }
        let minY = polygon.map(\.y).min()!, maxY = polygon.map(\.y).max()!
        let firstRow = max(0, Int(minY.rounded(.down)))
        let lastRow = min(side - 1, max(firstRow, Int(maxY.rounded(.up)) - 1))
        guard firstRow <= lastRow else { return [] }

        var tiles: [TileCoordinate] = []
        for row in firstRow...lastRow {
            let low = max(Double(row), minY), high = min(Double(row + 1), maxY)
            guard low <= high, let span = Self.xSpan(of: polygon, from: low, to: high) else { continue }
            let firstColumn = Int(span.lowerBound.rounded(.down))
            let lastColumn = max(firstColumn, Int(span.upperBound.rounded(.up)) - 1)
            if lastColumn - firstColumn + 1 >= side {
                tiles += (0..<side).map { TileCoordinate(z: z, x: $0, y: row) }
            } else {
                tiles += (firstColumn...lastColumn).map { column in
                    TileCoordinate(z: z, x: ((column % side) + side) % side, y: row)
                }
            }
        }
        return tiles
    }

    /// The x extent of a convex polygon between two horizontal lines: its vertices inside the band
    /// and its edges' crossings of the two lines.
    static func xSpan(of polygon: [MercatorPoint], from low: Double, to high: Double) -> ClosedRange<Double>? {
        var lowest = Double.infinity, highest = -Double.infinity
        for (index, start) in polygon.enumerated() {
            let end = polygon[(index + 1) % polygon.count]
            if start.y >= low, start.y <= high {
                lowest = min(lowest, start.x)
                highest = max(highest, start.x)
            }
            for line in [low, high] where (start.y - line) * (end.y - line) < 0 {
                let x = start.x + (end.x - start.x) * (line - start.y) / (end.y - start.y)
                lowest = min(lowest, x)
                highest = max(highest, x)
            }
        }
        return lowest <= highest ? lowest...highest : nil
    }
}
