internal import CGDAL
import TileGeometry

/// What tilelayer knows of a raster once it opened it at start-up: its size and overviews,
/// the bands drawn and how, and where it lies (footprint in WGS84 and Web Mercator, native zoom).
struct RasterInfo: Sendable {
    let width: Int
    let height: Int
    /// Overview sizes, finest first.
    let overviews: [(width: Int, height: Int)]
    /// The bands drawn (1-based): three (RGB) or one (grey).
    let bands: [Int]
    /// The file's alpha band, used as the validity of its pixels; nil when none is used.
    let alphaBand: Int?
    /// The value meaning "no data", if one applies.
    let nodata: Double?
    /// Linear rescale to 0…255; nil: 8-bit values pass as they are.
    let rescale: ClosedRange<Double>?
    /// Where the raster lies, in WGS84 (TileJSON `bounds`).
    let footprint: GeoBounds
    /// The same box in EPSG:3857 metres: minX, minY, maxX, maxY.
    let mercator: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    /// The zoom whose tiles first reach the raster's resolution.
    let nativeZoom: Int

    /// Reads what `dataset` says, with `options` choosing bands, rescale and nodata.
    init(_ dataset: GDALDataset, options: GeoTIFFOptions) throws(ImageryError) {
        let location = dataset.location.description
        width = dataset.width
        height = dataset.height
        guard dataset.bandCount > 0, let firstBand = dataset.band(1) else {
            throw .unusable(location: location, reason: "it has no raster bands")
        }
        overviews = (0 ..< Int(GDALGetOverviewCount(firstBand))).compactMap { index in
            GDALGetOverview(firstBand, Int32(index)).map { (Int(GDALGetRasterBandXSize($0)), Int(GDALGetRasterBandYSize($0))) }
        }.sorted { $0.width > $1.width }
        let interpretations = (1 ... dataset.bandCount).map { GDALGetRasterColorInterpretation(dataset.band($0)) }
        let alpha = interpretations.firstIndex(of: GCI_AlphaBand).map { $0 + 1 }
        if let chosen = options.bands {
            guard chosen.count == 1 || chosen.count == 3 else {
                throw .unusable(location: location, reason: "bands must list one band (grey) or three (red, green, blue), not \(chosen.count)")
            }
            if let wrong = chosen.first(where: { $0 < 1 || $0 > dataset.bandCount }) {
                throw .unusable(location: location, reason: "band \(wrong) does not exist (the raster has \(dataset.bandCount))")
            }
            bands = chosen
        } else {
            let colour = (1 ... dataset.bandCount).filter { $0 != alpha }
            bands = colour.count >= 3 ? Array(colour.prefix(3)) : [colour.first ?? 1]
        }
        var hasNodata: Int32 = 0
        let fileNodata = GDALGetRasterNoDataValue(dataset.band(bands[0]), &hasNodata)
        nodata = options.nodata ?? (hasNodata != 0 ? fileNodata : nil)
        alphaBand = bands.contains(alpha ?? 0) ? nil : alpha
        let type = GDALGetRasterDataType(dataset.band(bands[0]))
        if let range = options.rescale {
            rescale = range
        } else if type != GDT_Byte {
            rescale = try Self.valueRange(dataset, bands: bands)
        } else {
            rescale = nil
        }
        let place = try RasterPlacement(dataset)
        footprint = place.footprint
        mercator = place.mercator
        nativeZoom = place.nativeZoom
    }

    /// The smallest and largest value of `bands` (approximate statistics, from an overview).
    private static func valueRange(_ dataset: GDALDataset, bands: [Int]) throws(ImageryError) -> ClosedRange<Double> {
        var low = Double.infinity, high = -Double.infinity
        for index in bands {
            var minMax = [0.0, 0.0]
            GDALMessages.reset()
            guard GDALComputeRasterMinMax(dataset.band(index), 1, &minMax) == CE_None else {
                throw .unusable(location: dataset.location.description,
                                reason: "cannot compute the range of band \(index) (set rescale): \(GDALMessages.take())")
            }
            low = min(low, minMax[0])
            high = max(high, minMax[1])
        }
        return low < high ? low ... high : low ... low + 1
    }

    /// Whether the tile's Web Mercator box meets the raster's.
    func meets(_ tile: TileCoordinate) -> Bool {
        let box = TileBox(tile)
        return box.minX < mercator.maxX && box.maxX > mercator.minX && box.minY < mercator.maxY && box.maxY > mercator.minY
    }
}
