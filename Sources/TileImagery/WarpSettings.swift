internal import CGDAL

/// GDAL warp options for one tile: the drawn bands, the source's validity (nodata value, alpha
/// band or, when neither, the file's mask, which the warper reads by itself), an alpha band
/// written in the destination after the colour bands, the resampling, and the destination
/// cleared first (`INIT_DEST=0`: alpha 0 wherever no source pixel lands).
struct WarpSettings {
    let info: RasterInfo
    let resampling: GeoTIFFOptions.Resampling

    var algorithm: GDALResampleAlg {
        switch resampling {
        case .nearest: return GRA_NearestNeighbour
        case .bilinear: return GRA_Bilinear
        case .cubic: return GRA_Cubic
        case .lanczos: return GRA_Lanczos
        }
    }

    /// Options owned by the caller (`GDALDestroyWarpOptions` frees them and their arrays).
    func make(source: WarpLevel, destination: GDALDatasetH) -> UnsafeMutablePointer<GDALWarpOptions> {
        let options = GDALCreateWarpOptions()!
        let count = info.bands.count
        options.pointee.hSrcDS = source.dataset.handle
        options.pointee.hDstDS = destination
        options.pointee.nBandCount = Int32(count)
        let sourceBands = CPLMalloc(MemoryLayout<Int32>.size * count)!.assumingMemoryBound(to: Int32.self)
        let destinationBands = CPLMalloc(MemoryLayout<Int32>.size * count)!.assumingMemoryBound(to: Int32.self)
        for (index, band) in info.bands.enumerated() {
            sourceBands[index] = Int32(band)
            destinationBands[index] = Int32(index + 1)
        }
        options.pointee.panSrcBands = sourceBands
        options.pointee.panDstBands = destinationBands
        options.pointee.nSrcAlphaBand = Int32(info.alphaBand ?? 0)
        options.pointee.nDstAlphaBand = Int32(count + 1)
        if let nodata = info.nodata {
            let values = CPLMalloc(MemoryLayout<Double>.size * count)!.assumingMemoryBound(to: Double.self)
            for index in 0 ..< count { values[index] = nodata }
            options.pointee.padfSrcNoDataReal = values
        }
        options.pointee.eResampleAlg = algorithm
        options.pointee.pfnTransformer = GDALApproxTransform
        options.pointee.pTransformerArg = source.approximate
        var list = options.pointee.papszWarpOptions
        list = CSLSetNameValue(list, "INIT_DEST", "0")
        if info.nodata != nil { list = CSLSetNameValue(list, "UNIFIED_SRC_NODATA", "YES") }
        options.pointee.papszWarpOptions = list
        return options
    }
}
