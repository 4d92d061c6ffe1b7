import TileGeometry

/// The Web Mercator tile grid as OGC describes it (OGC 17-083r4 Annex D.1 "WebMercatorQuad";
/// WMTS 1.0 Annex E.4 "GoogleMapsCompatible"): matrix z has 2^z × 2^z tiles, origin top-left.
/// `tileSize` 256 is the 256 px tiles, 512 the `@2x` ones over the same matrices.
struct WebMercatorTileMatrixSet: Sendable, Equatable {
    /// Tile width and height in pixels: 256, or 512 for `@2x`.
    let tileSize: Int

    /// The 256 px set (WMTS `GoogleMapsCompatible`, OGC API `WebMercatorQuad`).
    static let standard = WebMercatorTileMatrixSet(tileSize: 256)
    /// The `@2x` set (WMTS `GoogleMapsCompatible_512`).
    static let retina = WebMercatorTileMatrixSet(tileSize: 512)

    /// Scale denominator of matrix 0 for 256 px tiles (0.28 mm pixels), WMTS Annex E.4.
    static let scaleDenominatorAtZoom0 = 559082264.0287178
    /// Metres per pixel of matrix 0 for 256 px tiles (2π·6378137 / 256), OGC 17-083r4 D.1.
    static let cellSizeAtZoom0 = 156543.03392804097
    /// Half the width of the Mercator square in metres, EPSG:3857 (as WMTS Annex E.4 writes it).
    static let originText = "20037508.3427892"
    /// The top-left corner's easting and northing in metres.
    static let origin = (x: -20037508.3427892, y: 20037508.3427892)

    /// Scale denominator of matrix `z`; a 512 px tile covers a 256 px tile's ground, so its
    /// pixels are half the size.
    func scaleDenominator(atZoom z: Int) -> Double {
        Self.scaleDenominatorAtZoom0 * 256 / Double(tileSize) / Double(TileCoordinate.tilesPerSide(atZoom: z))
    }

    /// Metres per pixel of matrix `z`.
    func cellSize(atZoom z: Int) -> Double {
        Self.cellSizeAtZoom0 * 256 / Double(tileSize) / Double(TileCoordinate.tilesPerSide(atZoom: z))
    }
}
