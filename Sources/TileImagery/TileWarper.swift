internal import CGDAL
import TileGeometry

/// Warps tiles of one raster: the raster's levels (full resolution and overviews, each opened
/// when first needed) and the in-memory destination datasets, used by one thread at a time
/// (GDAL datasets are not thread-safe; `WarperPool` lends each warper to one tile at a time).
///
/// `@unchecked Sendable`: all state is touched only by the thread that checked it out of the pool.
final class TileWarper: @unchecked Sendable {
    let location: RasterLocation
    let info: RasterInfo
    let options: GeoTIFFOptions
    private var levels: [Int: WarpLevel] = [:]
    private var destinations: [Int: GDALDatasetH] = [:]
    /// The two-pass warp, where it applies (decided when the full resolution opens).
    private(set) var separable: SeparableWarp?
    /// False: every tile warped by GDAL (tests compare the two).
    let allowsSeparable: Bool

    init(location: RasterLocation, info: RasterInfo, options: GeoTIFFOptions, allowsSeparable: Bool = true) {
        self.location = location
        self.info = info
        self.options = options
        self.allowsSeparable = allowsSeparable
    }

    deinit {
        for destination in destinations.values { GDALClose(destination) }
    }

    /// The level opened for `index` (-1: full resolution, else that overview).
    func level(_ index: Int) throws(ImageryError) -> WarpLevel {
        if let open = levels[index] { return open }
        let made = try WarpLevel(location, overviewLevel: index < 0 ? nil : index)
        levels[index] = made
        if index < 0 && allowsSeparable && drawsEveryPixelBilinear(made.dataset) { separable = SeparableWarp(made.dataset) }
        return made
    }

    /// Whether tiles are bilinear 8-bit samples of `dataset`'s bands with every pixel valid
    /// (no nodata, no alpha band, no mask): what `SeparableWarp` draws.
    private func drawsEveryPixelBilinear(_ dataset: GDALDataset) -> Bool {
        options.resampling == .bilinear && info.rescale == nil && info.nodata == nil && info.alphaBand == nil
            && info.bands.allSatisfy { dataset.band($0).map { GDALGetMaskFlags($0) == GMF_ALL_VALID } ?? false }
    }

    /// The tile `tile` drawn `size` pixels wide: bands then alpha, per pixel (interleaved),
    /// as bytes for 8-bit data or 32-bit floats when values are rescaled.
    func warp(_ tile: TileCoordinate, size: Int) throws(ImageryError) -> WarpedTile {
        let geoTransform = TileBox(tile).geoTransform(size: size)
        let full = try level(-1)
        full.aim(at: geoTransform)
        let chosen = OverviewChoice.level(ratio: full.sourcePixelsPerPixel(size: size) ?? 1, width: info.width, overviews: info.overviews)
        let source = try level(chosen)
        if let separable {
            GDALMessages.reset()
            var drawn = WarpedTile(size: size, channels: 4, floats: false)
            switch separable.warp(source.dataset, bands: info.bands, geoTransform: geoTransform, size: size, into: &drawn) {
            case .drawn: return drawn
            case .readFailed: throw failure(tile, "reading the source pixels failed")
            case .windowTooLarge: break  // GDAL warps it in chunks
            }
        }
        source.aim(at: geoTransform)
        let floats = info.rescale != nil
        let destination = try self.destination(size: size, floats: floats)
        var destinationTransform = geoTransform
        GDALSetGeoTransform(destination, &destinationTransform)
        GDALMessages.reset()
        let warpOptions = WarpSettings(info: info, resampling: options.resampling).make(
            source: source, destination: destination)
        defer { GDALDestroyWarpOptions(warpOptions) }
        let operation = GDALCreateWarpOperation(warpOptions)
        defer { if let operation { GDALDestroyWarpOperation(operation) } }
        guard let operation, GDALChunkAndWarpImage(operation, 0, 0, Int32(size), Int32(size)) == CE_None else {
            throw failure(tile, "warp failed")
        }
        // 8-bit data is read straight as RGBA (grey repeated into red, green and blue): the
        // buffer becomes the image's pixels, no second pass; rescaled data as its bands and alpha.
        let grey = info.bands.count == 1
        var bandMap: [Int32] = floats ? Array(1 ... Int32(info.bands.count + 1)) : (grey ? [1, 1, 1, 2] : [1, 2, 3, 4])
        let channels = bandMap.count
        var tileOut = WarpedTile(size: size, channels: channels, floats: floats)
        let sample = tileOut.bytesPerSample
        let status = tileOut.withBuffer { buffer, type in
            GDALDatasetRasterIO(destination, GF_Read, 0, 0, Int32(size), Int32(size), buffer, Int32(size), Int32(size), type,
                                Int32(channels), &bandMap, Int32(channels * sample), Int32(size * channels * sample), Int32(sample))
        }
        guard status == CE_None else { throw failure(tile, "reading the warped pixels failed") }
        return tileOut
    }

    private func failure(_ tile: TileCoordinate, _ what: String) -> ImageryError {
        let said = GDALMessages.take()
        return .tileFailed(location: location.description, tile: "\(tile.z)/\(tile.x)/\(tile.y)",
                           reason: said.isEmpty ? what : said)
    }

    /// The in-memory dataset tiles of `size` are warped into (bands + alpha), made once.
    private func destination(size: Int, floats: Bool) throws(ImageryError) -> GDALDatasetH {
        let key = size * 2 + (floats ? 1 : 0)
        if let made = destinations[key] { return made }
        guard let driver = GDALGetDriverByName("MEM"),
              let made = GDALCreate(driver, "", Int32(size), Int32(size), Int32(info.bands.count + 1),
                                    floats ? GDT_Float32 : GDT_Byte, nil) else {
            throw .unusable(location: location.description, reason: "GDAL's MEM driver is missing")
        }
        let srs = OSRNewSpatialReference(nil)
        OSRImportFromEPSG(srs, 3857)
        GDALSetSpatialRef(made, srs)
        OSRDestroySpatialReference(srs)
        destinations[key] = made
        return made
    }
}
