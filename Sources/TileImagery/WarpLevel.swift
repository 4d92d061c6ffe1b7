internal import CGDAL
import Foundation

/// One overview level of a raster opened for warping: its dataset and the transformer from a
/// tile's pixels (EPSG:3857) to the level's pixels, made once and re-aimed at each tile
/// (`GDALSetGenImgProjTransformerDstGeoTransform`), wrapped in GDAL's approximating transformer
/// (the warper's default error of 0.125 px, as `gdalwarp`).
final class WarpLevel {
    /// The approximating transformer's largest error, in pixels (gdalwarp's `-et` default).
    static let maxError = 0.125

    let dataset: GDALDataset
    let exact: UnsafeMutableRawPointer
    let approximate: UnsafeMutableRawPointer

    init(_ location: RasterLocation, overviewLevel: Int?) throws(ImageryError) {
        let dataset = try GDALDataset(location, overviewLevel: overviewLevel)
        self.dataset = dataset
        GDALMessages.reset()
        let made = CStringList(["DST_SRS=EPSG:3857"]).withPointer { options in
            GDALCreateGenImgProjTransformer2(dataset.handle, nil, options)
        }
        guard let made else {
            throw .unusable(location: location.description, reason: "no transformation to EPSG:3857: \(GDALMessages.take())")
        }
        exact = made
        approximate = GDALCreateApproxTransformer(GDALGenImgProjTransform, made, Self.maxError)
    }

    deinit {
        GDALDestroyApproxTransformer(approximate)
        GDALDestroyGenImgProjTransformer(exact)
    }

    /// Aims the transformers at a tile drawn with `geoTransform`.
    func aim(at geoTransform: [Double]) {
        GDALSetGenImgProjTransformerDstGeoTransform(exact, geoTransform)
    }

    /// Source pixels per tile pixel (the finer of the two axes) over the tile the transformers
    /// are aimed at, `size` pixels wide, from a 3×3 grid of points; nil when none transforms.
    func sourcePixelsPerPixel(size: Int) -> Double? {
        let half = Double(size) / 2
        var ratios: [Double] = []
        for row in 0 ..< 3 {
            for column in 0 ..< 2 {
                var xs = [Double(column) * half, Double(column + 1) * half, Double(column) * half]
                var ys = [Double(row) * half * 0.99, Double(row) * half * 0.99, Double(row) * half * 0.99 + 1]
                var zs = [0.0, 0.0, 0.0]
                var ok: [Int32] = [0, 0, 0]
                _ = GDALGenImgProjTransform(exact, 1, 3, &xs, &ys, &zs, &ok)
                guard ok.allSatisfy({ $0 != 0 }) else { continue }
                let alongX = hypot(xs[1] - xs[0], ys[1] - ys[0]) / half
                let alongY = hypot(xs[2] - xs[0], ys[2] - ys[0])
                ratios.append(min(alongX, alongY))
            }
        }
        return ratios.isEmpty ? nil : ratios.sorted()[ratios.count / 2]
    }
}
