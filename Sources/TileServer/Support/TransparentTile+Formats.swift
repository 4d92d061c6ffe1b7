import Synchronization
import TileGeometry
import TilePNG
import TileProviders

extension TransparentTile {
    /// Transparent tiles of formats other than PNG, encoded once through `TileImageCodec`, by "format@scale".
    private static let encoded = Mutex<[String: ServedTile]>([:])

    /// The transparent tile of `format` for a scale, made once; nil for a format that cannot be
    /// encoded (vector tiles, or a raster format whose codec this build lacks).
    static func served(scale: Int, format: TileFormat) -> ServedTile? {
        if format == .png { return served(scale: scale) }
        let key = "\(format.rawValue)@\(scale)"
        if let kept = encoded.withLock({ $0[key] }) { return kept }
        let side = WebMercator.tileSize * scale
        guard let body = try? TileImageCodec.encode(RGBAImage(width: side, height: side), format: format) else { return nil }
        let tile = ServedTile(body: body, lastModified: nil)
        encoded.withLock { $0[key] = tile }
        return tile
    }
}
