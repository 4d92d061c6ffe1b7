internal import CGDAL

/// One open GDAL dataset. Not thread-safe (GDAL datasets are not): used by one thread at a time,
/// inside the `TileWarper` that owns it. Closed when released.
final class GDALDataset {
    let handle: GDALDatasetH
    /// Where it was opened from, for messages.
    let location: RasterLocation

    /// Opens `location` read-only as a raster; `overviewLevel` opens that overview as a dataset
    /// of its own (GDAL's `OVERVIEW_LEVEL` open option: its geotransform is the overview's).
    init(_ location: RasterLocation, overviewLevel: Int? = nil) throws(ImageryError) {
        ImageryEnvironment.ensure()
        self.location = location
        GDALMessages.reset()
        VSIErrorReset()
        let options = overviewLevel.map { ["OVERVIEW_LEVEL=\($0)"] } ?? []
        let opened = CStringList(options).withPointer { list in
            GDALOpenEx(location.gdalName, UInt32(GDAL_OF_RASTER | GDAL_OF_READONLY | GDAL_OF_VERBOSE_ERROR), nil,
                       list.map { UnsafeRawPointer($0).assumingMemoryBound(to: UnsafePointer<CChar>?.self) }, nil)
        }
        guard let opened else {
            throw .cannotOpen(location: location.description, reason: StoreAnswer.describe(default: "GDAL cannot read it as a raster"))
        }
        handle = opened
    }

    deinit { GDALClose(handle) }

    var width: Int { Int(GDALGetRasterXSize(handle)) }
    var height: Int { Int(GDALGetRasterYSize(handle)) }
    var bandCount: Int { Int(GDALGetRasterCount(handle)) }

    /// Band `index` (1-based).
    func band(_ index: Int) -> GDALRasterBandH? { GDALGetRasterBand(handle, Int32(index)) }

    /// The affine transform from pixel/line to georeferenced coordinates; nil when the file has none.
    var geoTransform: [Double]? {
        var transform = [Double](repeating: 0, count: 6)
        guard GDALGetGeoTransform(handle, &transform) == CE_None else { return nil }
        return transform
    }

    /// The coordinate system as WKT; "" when the file has none.
    var projection: String {
        GDALGetProjectionRef(handle).map { String(cString: $0) } ?? ""
    }
}

/// A NULL-terminated `char **` list (GDAL's "CSL") built from Swift strings.
struct CStringList {
    let strings: [String]

    init(_ strings: [String]) { self.strings = strings }

    /// Calls `body` with the list (nil when empty); the list lives only during the call.
    func withPointer<R>(_ body: (UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> R) -> R {
        guard !strings.isEmpty else { return body(nil) }
        var list: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = nil
        for string in strings { list = CSLAddString(list, string) }
        defer { CSLDestroy(list) }
        return body(list)
    }
}
