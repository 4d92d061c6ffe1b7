import TileGeometry
import TilePNG

/// The decoded tiles of one zoom that a static view is drawn from, side by side in one buffer and
/// found by tile coordinate: the texture `ViewRasterizer` samples. Immutable once built.
struct TileAtlas: Sendable {
    /// What `slot(column:row:)` finds.
    enum Slot: Equatable {
        /// Pixels at `pixelOffset` in `pixels`.
        case image(pixelOffset: Int)
        /// The source has no tile here: transparent.
        case noTile
        /// Not part of the view's tile list: a sample weighs nothing here.
        case absent
    }

    /// The zoom of every tile.
    let zoom: Int
    /// Tile side in pixels (256, or 512 for `@2x`).
    let tileSide: Int
    /// Tiles per side of the world at `zoom`.
    let tilesPerSide: Int
    /// RGBA8 pixels, straight alpha, one `tileSide`² block per tile with an image.
    let pixels: [UInt8]
    /// Row-major tile index (`row * tilesPerSide + column`) → byte offset of its block, or -1 for no tile.
    private let offsets: [Int: Int]

    /// An atlas of `tiles` (nil image: no tile). Every image must be `tileSide` square.
    init(zoom: Int, tileSide: Int, tiles: [(tile: TileCoordinate, image: RGBAImage?)]) {
        self.zoom = zoom
        self.tileSide = tileSide
        tilesPerSide = TileCoordinate.tilesPerSide(atZoom: zoom)
        let blockBytes = tileSide * tileSide * RGBAImage.bytesPerPixel
        var pixels: [UInt8] = []
        pixels.reserveCapacity(tiles.count(where: { $0.image != nil }) * blockBytes)
        var offsets: [Int: Int] = [:]
        for (tile, image) in tiles {
            let index = tile.y * tilesPerSide + tile.x
            guard let image else {
                offsets[index] = -1
                continue
            }
            precondition(image.width == tileSide && image.height == tileSide, "atlas tiles are checked by the renderer")
            offsets[index] = pixels.count
            pixels += image.pixels
        }
        self.pixels = pixels
        self.offsets = offsets
    }

    /// Width (and height) of the world in pixels at `zoom`.
    var worldPixels: Int { tilesPerSide * tileSide }

    /// The tile at (`column`, `row`), both inside the grid.
    func slot(column: Int, row: Int) -> Slot {
        guard let offset = offsets[row * tilesPerSide + column] else { return .absent }
        return offset < 0 ? .noTile : .image(pixelOffset: offset)
    }
}
