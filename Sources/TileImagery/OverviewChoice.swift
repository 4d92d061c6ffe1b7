/// Which level a tile is read from, with `gdalwarp -ovr AUTO`'s rule: the coarsest overview
/// that is still at least as fine as the tile (its downsampling factor not above the tile's
/// source pixels per pixel), so a tile never shows an overview upsampled; -1 is full resolution.
enum OverviewChoice {
    /// A factor this close above the ratio still counts (rounding of overview sizes).
    static let tolerance = 1e-3

    /// The level for `ratio` source pixels per tile pixel, for a raster `width` wide with
    /// `overviews` (finest first).
    static func level(ratio: Double, width: Int, overviews: [(width: Int, height: Int)]) -> Int {
        var chosen = -1
        for (index, overview) in overviews.enumerated() {
            let factor = Double(width) / Double(overview.width)
            if factor <= ratio * (1 + tolerance) { chosen = index } else { break }
        }
        return chosen
    }
}
