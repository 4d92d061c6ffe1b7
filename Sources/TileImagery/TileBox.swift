import Foundation
import TileGeometry

/// A tile's box in EPSG:3857 metres, and its geotransform at a pixel size.
struct TileBox {
    /// Half the Web Mercator square's side: π · 6378137 m (EPSG:3857).
    static let originShift = Double.pi * 6_378_137
    let minX: Double
    let minY: Double
    let maxX: Double
    let maxY: Double

    /// The box of `tile` (XYZ: row 0 at the north).
    init(_ tile: TileCoordinate) {
        let span = 2 * Self.originShift / Double(1 << tile.z)
        minX = -Self.originShift + Double(tile.x) * span
        maxX = minX + span
        maxY = Self.originShift - Double(tile.y) * span
        minY = maxY - span
    }

    /// GDAL's geotransform of the tile drawn `size` pixels wide (north up).
    func geoTransform(size: Int) -> [Double] {
        let pixel = (maxX - minX) / Double(size)
        return [minX, pixel, 0, maxY, 0, -pixel]
    }

    /// Metres per pixel of a 256 px tile at `zoom`.
    static func resolution(zoom: Int) -> Double {
        2 * originShift / (Double(WebMercator.tileSize) * Double(1 << zoom))
    }

    /// EPSG:3857 x and y of a longitude and latitude (latitude clamped to the square).
    static func mercator(lon: Double, lat: Double) -> (x: Double, y: Double) {
        let clamped = max(-WebMercator.maxLatitude, min(WebMercator.maxLatitude, lat))
        let x = lon * originShift / 180
        let y = log(tan((90 + clamped) * Double.pi / 360)) * 6_378_137
        return (x, y)
    }
}
