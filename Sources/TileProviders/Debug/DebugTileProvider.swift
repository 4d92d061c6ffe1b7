import TileGeometry
import TilePNG

/// Generated tiles that show their own border and `z/x/y`: the synchronous-provider example
/// (`GMSSyncTileLayer`) and a quick check of a client's tile math. Transparent elsewhere, so
/// it can be stacked over another layer.
public struct DebugTileProvider: SyncTileProvider {
    /// Pixel size of the tiles: 256 or 512.
    public let tileSize: Int
    private let encoder = PNGEncoder()

    /// Border and text colour.
    static let ink = RGBAColor(red: 200, green: 30, blue: 30)
    /// Label background.
    static let paper = RGBAColor(red: 255, green: 255, blue: 255, alpha: 220)
    /// Border width at 256 px.
    static let borderWidth = 2
    /// Font scale at 256 px.
    static let fontScale = 2

    /// A provider of `tileSize` px tiles.
    public init(tileSize: Int = WebMercator.tileSize) {
        self.tileSize = tileSize
    }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        .tile(Tile(data: try render(TileCoordinate(z: zoom, x: x, y: y))))
    }

    /// The PNG for `tile`.
    public func render(_ tile: TileCoordinate) throws(TileProviderError) -> [UInt8] {
        let factor = tileSize / WebMercator.tileSize
        var image = RGBAImage(width: tileSize, height: tileSize)
        let border = Self.borderWidth * factor
        for inset in 0 ..< border {
            image.strokeRectangle(x: inset, y: inset, width: tileSize - 2 * inset, height: tileSize - 2 * inset, color: Self.ink)
        }
        let label = "\(tile.z)/\(tile.x)/\(tile.y)"
        let scale = Self.fontScale * factor
        let textWidth = BitmapFont.width(of: label, scale: scale)
        let textHeight = BitmapFont.glyphHeight * scale
        let margin = 4 * factor
        let left = max(border + margin, (tileSize - textWidth) / 2)
        let top = (tileSize - textHeight) / 2
        image.fillRectangle(x: left - margin, y: top - margin, width: textWidth + 2 * margin,
                            height: textHeight + 2 * margin, color: Self.paper)
        _ = image.drawText(label, x: left, y: top, scale: scale, color: Self.ink)
        do {
            return try encoder.encode(image)
        } catch {
            throw .renderFailed(reason: "debug tile \(tile): \(error)")
        }
    }
}
