import TileCache
import TileGeometry
import TileProviders
import TilePNG

/// Draws a `StaticView` from its layer's tiles: fetches them concurrently through the pipeline (so
/// they are cached and coalesced like tile requests), decodes them into a `TileAtlas`, and rasterizes
/// bands of rows in parallel. Tiles match the output's pixel density: `@2x` views use `@2x` tiles.
struct StaticRenderer {
    /// The finished view, or why there is none yet.
    enum Outcome: Sendable {
        /// The image and the tiles it was drawn from (the atlas's tiles, in the view's order).
        case image(RGBAImage, tiles: [TileCoordinate], sampled: Set<TileCoordinate>)
        /// A tile is not available now: the whole view is not (the largest Retry-After).
        case unavailable(retryAfter: Int)
    }

    let pipeline: TilePipeline

    /// The encoder for views: zlib level 2 with the Up filter. A view is encoded on every request
    /// (tiles are encoded once and cached), so deflate is a large share of its cost: level 2 is
    /// about 3× as fast as level 6 for about 15 % more bytes.
    static let encoder = PNGEncoder(compressionLevel: 2, filter: .up)

    /// Rows per rasterizing task: small enough to spread a view over every core.
    static let bandRows = 64

    /// Renders `view` from `layer`'s tiles with the layer's `variables`.
    func render(_ view: StaticView, layer: Layer, variables: [String: String]) async -> Result<Outcome, TileFailure> {
        let scale = view.viewport.scale
        let keys = view.tiles.map { TileKey(layer: layer.name, tile: $0, scale: scale, variables: variables) }
        var images: [(tile: TileCoordinate, image: RGBAImage?)] = []
        var retryAfter: Int?
        for (key, result) in zip(keys, await fetchAll(keys, layer: layer, side: WebMercator.tileSize * scale)) {
            switch result {
            case .failure(let failure): return .failure(failure)
            case .success(.unavailable(let retry)): retryAfter = max(retryAfter ?? retry, retry)
            case .success(.image(let image)): images.append((key.tile, image))
            }
        }
        if let retryAfter { return .success(.unavailable(retryAfter: retryAfter)) }
        let atlas = TileAtlas(zoom: view.tileZoom, tileSide: WebMercator.tileSize * scale, tiles: images)
        let (image, sampled) = await draw(ViewRasterizer(projection: view.projection, atlas: atlas))
        return .success(.image(image, tiles: images.map(\.tile), sampled: sampled))
    }

    /// A tile decoded (nil: no tile), or "not available now".
    private enum Fetched: Sendable {
        case image(RGBAImage?)
        case unavailable(Int)
    }

    /// Every key's tile, fetched and decoded concurrently, in the order of `keys`.
    private func fetchAll(_ keys: [TileKey], layer: Layer, side: Int) async -> [Result<Fetched, TileFailure>] {
        await keys.concurrentMap { [pipeline] key in
            switch await pipeline.outcome(for: key, layer: layer).result {
            case .failure(let failure): return .failure(failure)
            case .success(.noTile): return .success(.image(nil))
            case .success(.unavailable(let retry)): return .success(.unavailable(retry))
            case .success(.tile(let tile)):
                return Self.decode(tile, key: key, format: layer.format, side: side, cache: pipeline.decodedTiles)
            }
        }
    }

    /// The tile decoded, from `cache` (the pipeline's decoded tiles) when it was decoded before.
    private static func decode(
        _ tile: ServedTile, key: TileKey, format: TileFormat, side: Int, cache decodedTiles: MemoryCache<String, RGBAImage>
    ) -> Result<Fetched, TileFailure> {
        if let image = decodedTiles.value(for: tile.etag), image.width == side, image.height == side {
            return .success(.image(image))
        }
        let image: RGBAImage
        do {
            image = try TileImageCodec.decode(try tile.storedBytes(), format: format)
            decodedTiles.insert(image, for: tile.etag, cost: image.pixels.count)
        } catch {
            return .failure(TileFailure(key: key, error: .undecodable(source: "tile \(key)", reason: "\(error)")))
        }
        guard image.width == side, image.height == side else {
            let reason = "it is \(image.width)×\(image.height) pixels, a \(side)-pixel tile was expected"
            return .failure(TileFailure(key: key, error: .undecodable(source: "tile \(key)", reason: reason)))
        }
        return .success(.image(image))
    }

    /// The rasterizer's bands drawn in parallel and joined; with the tiles the samples touched.
    private func draw(_ rasterizer: ViewRasterizer) async -> (RGBAImage, Set<TileCoordinate>) {
        let height = rasterizer.pixelHeight, width = rasterizer.pixelWidth
        let bands = stride(from: 0, to: height, by: Self.bandRows).map { $0..<min($0 + Self.bandRows, height) }
        let drawn = await withTaskGroup(of: (Int, ViewRasterizer.Band).self) { group in
            for (index, rows) in bands.enumerated() {
                group.addTask { (index, rasterizer.draw(rows: rows)) }
            }
            var results = [ViewRasterizer.Band?](repeating: nil, count: bands.count)
            for await (index, band) in group { results[index] = band }
            return results.map { $0! }
        }
        var pixels: [UInt8] = []
        pixels.reserveCapacity(width * height * RGBAImage.bytesPerPixel)
        var sampled = Set<TileCoordinate>()
        for band in drawn {
            pixels += band.pixels
            sampled.formUnion(band.sampled)
        }
        // The bands cover every row, each `width` pixels of 4 bytes: the size is right by construction.
        let image = try! RGBAImage(width: width, height: height, pixels: pixels)
        return (image, sampled)
    }
}
