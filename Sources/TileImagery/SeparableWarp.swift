internal import CGDAL
import Foundation

/// GDAL's bilinear warp, computed in two passes where a tile's columns map to source columns and
/// its rows to source rows on their own: a north-up raster in EPSG:4326 or EPSG:3857, 8-bit,
/// every pixel valid (no nodata, alpha or mask). The weights are the warper's: a tent over
/// `1 / scale` source pixels on each axis when the tile downsamples (`scale`, the tile's pixels
/// over the source pixels it spans, snapped to 1/n within 0.05), the 2×2 formula when both
/// axes' scale is 0.95 or more, normalised over the taps inside the raster; a pixel whose
/// centre falls outside the raster has no data. Its tiles differ from GDAL's by rounding (the
/// sums are in `Float`) and by GDAL's approximate transform (0.125 px): `SeparableWarpTests`.
/// Any other raster is warped by GDAL.
struct SeparableWarp {
    /// How a tile pixel's EPSG:3857 coordinates become the source's.
    enum Axes {
        /// Longitude and latitude in degrees (EPSG:4326).
        case geographic
        /// EPSG:3857 metres.
        case mercator
    }

    let axes: Axes

    /// The warp for `dataset` when its coordinate system and geotransform allow it, else nil.
    init?(_ dataset: GDALDataset) {
        guard let transform = dataset.geoTransform, transform[2] == 0, transform[4] == 0, transform[1] > 0,
              transform[5] < 0, let srs = GDALGetSpatialRef(dataset.handle),
              let name = OSRGetAuthorityName(srs, nil), String(cString: name) == "EPSG",
              let code = OSRGetAuthorityCode(srs, nil) else { return nil }
        switch String(cString: code) {
        case "4326": axes = .geographic
        case "3857": axes = .mercator
        default: return nil
        }
    }

    /// One axis of a tile: for each destination pixel the source taps and their weights.
    private final class Taps {
        /// Per destination pixel: its first tap (a source index, maybe before the raster's first:
        /// its weight is 0), or `Int32.min` when the pixel has no data.
        let first: UnsafeMutableBufferPointer<Int32>
        /// Per destination pixel, `width` weights (normalised; 0 past the raster's edge).
        let weights: UnsafeMutableBufferPointer<Float>
        let width: Int
        /// The lowest and highest source index any tap reads (lowest > highest: none).
        private(set) var low = Int.max, high = Int.min

        /// `centres`: the destination pixels' centres in source pixels; `scale`: the warper's.
        init(centres: [Double], scale: Double, extent: Int) {
            let radius = scale >= 1 ? 1 : Int((1 / scale).rounded(.up))
            width = 2 * radius
            first = .allocate(capacity: centres.count)
            first.initialize(repeating: .min)
            weights = .allocate(capacity: centres.count * width)
            weights.initialize(repeating: 0)
            var raw = [Double](repeating: 0, count: width)
            for (pixel, centre) in centres.enumerated() {
                guard centre >= 0, Int(centre + 1e-10) < extent else { continue }
                let base = Int((centre - 0.5).rounded(.down))
                let delta = centre - 0.5 - Double(base)
                let start = base + 1 - radius
                var sum = 0.0
                for tap in 0 ..< width {
                    let inside = start + tap >= 0 && start + tap < extent
                    raw[tap] = inside ? max(0, 1 - abs((Double(tap + 1 - radius) - delta) * scale)) : 0
                    sum += raw[tap]
                }
                guard sum > 0 else { continue }
                first[pixel] = Int32(start)
                for tap in 0 ..< width where raw[tap] > 0 {
                    weights[pixel * width + tap] = Float(raw[tap] / sum)
                    low = min(low, start + tap)
                    high = max(high, start + tap)
                }
            }
        }

        deinit {
            first.deallocate()
            weights.deallocate()
        }
    }

    /// The warper's scale for `size` destination pixels over the source span `from`…`to`
    /// (clamped to the raster's `extent`), before the 2×2 formula's threshold.
    private static func scale(size: Int, from: Double, to: Double, extent: Int) -> Double {
        let span = min(Double(extent), max(from, to)) - max(0, min(from, to))
        guard span > 0 else { return 1 }
        var scale = min(1, Double(size) / span)
        if scale < 1 {
            let reciprocal = 1 / scale
            let whole = (reciprocal + 0.5).rounded(.down)
            if abs(reciprocal - whole) < 0.05 { scale = 1 / whole }
        }
        return scale
    }

    /// `value` (a sum plus 0.5) as a byte: cut toward zero, clamped to 0…255.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value)))
    }

    /// The source column of EPSG:3857 `x` on a level with geotransform `transform`.
    private func column(_ x: Double, _ transform: [Double]) -> Double {
        let source = axes == .geographic ? x / TileBox.originShift * 180 : x
        return (source - transform[0]) / transform[1]
    }

    /// The source row of EPSG:3857 `y` on a level with geotransform `transform`.
    private func row(_ y: Double, _ transform: [Double]) -> Double {
        let source = axes == .geographic ? atan(sinh(y / 6_378_137)) * 180 / .pi : y
        return (source - transform[3]) / transform[5]
    }

    /// Draws the tile with `geoTransform` (EPSG:3857, `size` pixels) from `level`'s `bands`
    /// (three, or one drawn as grey) into `tile` (RGBA, alpha 255 where there is data); false
    /// when GDAL cannot read the pixels.
    func warp(_ level: GDALDataset, bands: [Int], geoTransform: [Double], size: Int, into tile: inout WarpedTile) -> Bool {
        guard let transform = level.geoTransform else { return false }
        let pixel = geoTransform[1]
        let span = Double(size) * pixel
        var scaleX = Self.scale(size: size, from: column(geoTransform[0], transform),
                                to: column(geoTransform[0] + span, transform), extent: level.width)
        var scaleY = Self.scale(size: size, from: row(geoTransform[3], transform),
                                to: row(geoTransform[3] - span, transform), extent: level.height)
        if scaleX >= 0.95 && scaleY >= 0.95 { (scaleX, scaleY) = (1, 1) }
        let across = Taps(centres: (0 ..< size).map { column(geoTransform[0] + (Double($0) + 0.5) * pixel, transform) },
                          scale: scaleX, extent: level.width)
        let down = Taps(centres: (0 ..< size).map { row(geoTransform[3] - (Double($0) + 0.5) * pixel, transform) },
                        scale: scaleY, extent: level.height)
        guard across.low <= across.high, down.low <= down.high else { return true }  // no data
        let window = (x: across.low, y: down.low, width: across.high - across.low + 1, height: down.high - down.low + 1)
        let samples = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: window.width * window.height * 3)
        defer { samples.deallocate() }
        var bandMap = bands.count == 1 ? [Int32](repeating: Int32(bands[0]), count: 3) : bands.map(Int32.init)
        guard GDALDatasetRasterIO(level.handle, GF_Read, Int32(window.x), Int32(window.y), Int32(window.width),
                                  Int32(window.height), samples.baseAddress, Int32(window.width), Int32(window.height),
                                  GDT_Byte, 3, &bandMap, 3, Int32(window.width * 3), 1) == CE_None else { return false }
        // The tile's rows top to bottom, each from `down.width` source rows resampled across to
        // the tile's columns. A source row is resampled once, into a ring of `down.width` lines:
        // the rows read only move down the source as the tile's rows do.
        let padX = across.width
        let line = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: window.width + 2 * padX)
        let ring = UnsafeMutableBufferPointer<SIMD4<Float>>.allocate(capacity: down.width * size)
        defer { line.deallocate(); ring.deallocate() }
        line.initialize(repeating: .zero)  // the padding stays 0: a tap past the window has weight 0
        ring.initialize(repeating: .zero)
        var ringRows = [Int](repeating: .min, count: down.width)

        /// Where in `ring` source row `sourceRow` is, resampled across (zeros outside the window).
        func resampled(_ sourceRow: Int) -> Int {
            let slot = (sourceRow % down.width + down.width) % down.width
            let base = slot * size
            guard ringRows[slot] != sourceRow else { return base }
            ringRows[slot] = sourceRow
            let windowRow = sourceRow - window.y
            guard windowRow >= 0 && windowRow < window.height else {
                for column in 0 ..< size { ring[base + column] = .zero }
                return base
            }
            let offset = windowRow * window.width * 3
            for index in 0 ..< window.width {
                let sample = offset + index * 3
                line[padX + index] = SIMD4(Float(samples[sample]), Float(samples[sample + 1]), Float(samples[sample + 2]), 0)
            }
            for column in 0 ..< size where across.first[column] != .min {
                let start = Int(across.first[column]) - window.x + padX
                var sum = SIMD4<Float>.zero
                for tap in 0 ..< across.width { sum += across.weights[column * across.width + tap] * line[start + tap] }
                ring[base + column] = sum
            }
            return base
        }

        var bases = [Int](repeating: 0, count: down.width)
        tile.bytes.withUnsafeMutableBufferPointer { out in
            for tileRow in 0 ..< size where down.first[tileRow] != .min {
                for tap in 0 ..< down.width { bases[tap] = resampled(Int(down.first[tileRow]) + tap) }
                for column in 0 ..< size where across.first[column] != .min {
                    var sum = SIMD4<Float>(repeating: 0.5)  // rounded as the warper rounds bytes
                    for tap in 0 ..< down.width { sum += down.weights[tileRow * down.width + tap] * ring[bases[tap] + column] }
                    let pixel = (tileRow * size + column) * 4
                    out[pixel] = Self.byte(sum[0])
                    out[pixel + 1] = Self.byte(sum[1])
                    out[pixel + 2] = Self.byte(sum[2])
                    out[pixel + 3] = 255
                }
            }
        }
        return true
    }
}
