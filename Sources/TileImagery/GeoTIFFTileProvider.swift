// TileImagery: rasters read through GDAL (GeoTIFF, COG; local, HTTP(S), S3) and warped per tile
// to Web Mercator. Every GDAL dataset is used by one thread at a time (`WarperPool`).

import Logging
import TileCodecs
import TileGeometry
import TilePNG
import TileProviders

/// Tiles of a GeoTIFF or COG in any coordinate system, warped per tile to the tile's EPSG:3857
/// box from the overview that fits the zoom, at the requested scale (`@2x` is read at twice the
/// resolution, never upscaled). A tile wholly outside the raster, or with no data at all, is
/// `.noTile`; a failed read is an error naming the tile (a 502).
public final class GeoTIFFTileProvider: SyncTileProvider {
    /// The raster.
    public let location: RasterLocation
    /// How it is drawn.
    public let options: GeoTIFFOptions
    let info: RasterInfo
    private let pool: WarperPool

    /// PNG tiles of imagery are encoded at zlib level 2 (row filter "up"): photographs gain
    /// little from more effort, and on cold tiles level 2 gave about 12 % more tiles per CPU
    /// second than the server's default level 4 (`scripts/bench-imagery.sh`).
    static let pngEncoder = PNGEncoder(compressionLevel: 2, filter: .up)

    /// Opens `location` (at start-up: a raster that cannot be opened or served throws, naming it).
    public init(location: RasterLocation, options: GeoTIFFOptions = GeoTIFFOptions()) throws(ImageryError) {
        self.location = location
        self.options = options
        let warper = TileWarper(location: location, info: try RasterInfo(GDALDataset(location), options: options), options: options)
        info = warper.info
        // The first warper opens the full-resolution level now: its problems are start-up errors.
        _ = try warper.level(-1)
        pool = WarperPool(first: warper) { [info] in TileWarper(location: location, info: info, options: options) }
    }

    /// The raster's footprint in WGS84 (TileJSON `bounds`).
    public var footprint: GeoBounds { info.footprint }
    /// The zoom whose tiles first reach the raster's resolution (TileJSON `maxzoom`).
    public var nativeZoom: Int { info.nativeZoom }

    /// Every scale is drawn from the raster itself (`@2x` at twice the resolution).
    public var rendersEveryScale: Bool { true }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        try tile(for: TileRequest(x: x, y: y, zoom: zoom))
    }

    public func tile(for request: TileRequest) throws(TileProviderError) -> TileResult {
        let tile = request.tile
        guard info.meets(tile) else { return .noTile }
        let size = WebMercator.tileSize * max(1, request.scale)
        let image: RGBAImage?
        do {
            image = try pool.withWarper { warper throws(ImageryError) in
                var warped = try warper.warp(tile, size: size)
                return warped.image(rescale: info.rescale)
            }
        } catch {
            throw error.providerError
        }
        guard let image else { return .noTile }
        do {
            return .tile(Tile(data: try TileImageCodec.encode(image, format: options.format, pngEncoder: Self.pngEncoder,
                                                                  quality: options.quality)))
        } catch {
            throw .renderFailed(reason: "tile \(tile.z)/\(tile.x)/\(tile.y) of \(location): \(error)")
        }
    }
}
