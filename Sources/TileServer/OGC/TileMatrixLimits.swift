import TileGeometry

/// The tiles of one matrix a layer has (WMTS `TileMatrixLimits`, OGC API `tileMatrixSetLimits`).
struct TileMatrixLimits: Sendable, Equatable {
    /// The matrix: the zoom.
    let zoom: Int
    /// `MinTileRow` … `MaxTileRow` (y).
    let rows: ClosedRange<Int>
    /// `MinTileCol` … `MaxTileCol` (x).
    let columns: ClosedRange<Int>

    /// The limits of `layer` at each zoom of its range, from its bounds (the world when it has
    /// none); a box across the antimeridian spans every column.
    static func of(_ layer: Layer) -> [TileMatrixLimits] {
        let bounds = layer.settings.bounds ?? WebMercator.worldBounds
        return (layer.minZoom ... layer.maxZoom).map { zoom in
            let ranges = bounds.tileRanges(atZoom: zoom)
            let columns = ranges.count == 1 ? ranges[0].xs : 0 ... TileCoordinate.tilesPerSide(atZoom: zoom) - 1
            return TileMatrixLimits(zoom: zoom, rows: ranges[0].ys, columns: columns)
        }
    }

    /// Whether the tile at `row`, `column` is inside.
    func contains(row: Int, column: Int) -> Bool {
        rows.contains(row) && columns.contains(column)
    }
}
