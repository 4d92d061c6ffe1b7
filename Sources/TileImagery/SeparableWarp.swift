internal import CGDAL
import Foundation
import TileGeometry

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
        // GDAL wraps longitudes past ±180° (a raster over the antimeridian or in 0…360°): not here.
        let west = transform[0], east = transform[0] + Double(dataset.width) * transform[1]
        switch String(cString: code) {
        case "4326" where west >= -180 - 1e-9 && east <= 180 + 1e-9: axes = .geographic
        case "3857" where west >= -TileBox.originShift * (1 + 1e-9) && east <= TileBox.originShift * (1 + 1e-9): axes = .mercator
        default: return nil
        }
    }

    /// GDAL's warper: from this scale on both axes, the 2×2 bilinear formula.
    static let fourSampleScale = 0.95
    /// GDAL's warper: a downsampling within this of a whole factor n counts as n.
    static let wholeFactorSnap = 0.05
    /// Largest source window read at once (GDAL's default warp memory): a larger one, from a
    /// raster without overviews fine enough, is left to GDAL, which warps it in chunks.
    static let maxWindowBytes = 64 << 20

    /// What `warp` did.
    enum Drawn {
        case drawn
        /// GDAL could not read the source pixels.
        case readFailed
        /// The source window is over `maxWindowBytes`.
        case windowTooLarge
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
                guard centre >= 0, centre + 1e-10 < Double(extent) else { continue }  // GDAL's test
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

    /// The warper's scale for `size` destination pixels over the source span `from`…`to` on an
    /// axis `extent` pixels long, before the 2×2 formula's threshold: as GDAL clamps the span,
    /// its start to the raster and its length to what lies after that start.
    private static func scale(size: Int, from: Double, to: Double, extent: Int) -> Double {
        let start = max(0, min(from, to))
        let span = min(Double(extent) - start, max(from, to) - min(from, to))
        guard span > 0 else { return 1 }
        var scale = min(1, Double(size) / span)
        if scale < 1 {
            let reciprocal = 1 / scale
            let whole = (reciprocal + 0.5).rounded(.down)
            if abs(reciprocal - whole) < wholeFactorSnap { scale = 1 / whole }
        }
        return scale
    }

    /// `value` (a sum plus 0.5) as a byte: cut toward zero, clamped to 0…255.
    @inline(__always)
    private static func byte(_ value: Float) -> UInt8 {
        UInt8(min(255, max(0, value)))
    }

    /// The point of EPSG:3857 metres `x`, `y` on the unit Mercator square.
    private static func unitPoint(x: Double, y: Double) -> MercatorPoint {
        MercatorPoint(x: 0.5 + x / (2 * TileBox.originShift), y: 0.5 - y / (2 * TileBox.originShift))
    }

    /// The source column of EPSG:3857 `x` on a level with geotransform `transform`.
    private func column(_ x: Double, _ transform: [Double]) -> Double {
        let source = axes == .geographic ? Self.unitPoint(x: x, y: 0).coordinate.longitude : x
        return (source - transform[0]) / transform[1]
    }

    /// The source row of EPSG:3857 `y` on a level with geotransform `transform`.
    private func row(_ y: Double, _ transform: [Double]) -> Double {
        let source = axes == .geographic ? Self.unitPoint(x: 0, y: y).coordinate.latitude : y
        return (source - transform[3]) / transform[5]
    }

    /// Draws the tile with `geoTransform` (EPSG:3857, `size` pixels) from `level`'s `bands`
    /// (three, or one drawn as grey) into `tile` (RGBA, alpha 255 where there is data).
    func warp(_ level: GDALDataset, bands: [Int], geoTransform: [Double], size: Int, into tile: inout WarpedTile) -> Drawn {
        guard let transform = level.geoTransform else { return .readFailed }
        let (across, down) = taps(geoTransform: geoTransform, size: size, transform: transform, level: level)
        guard across.low <= across.high, down.low <= down.high else { return .drawn }  // no data
        let window = Window(x: across.low, y: down.low, width: across.high - across.low + 1, height: down.high - down.low + 1,
                            channels: bands.count)
        guard window.bytes <= Self.maxWindowBytes else { return .windowTooLarge }
        let samples = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: window.bytes)
        defer { samples.deallocate() }
        var bandMap = bands.map(Int32.init)
        guard GDALDatasetRasterIO(level.handle, GF_Read, Int32(window.x), Int32(window.y), Int32(window.width),
                                  Int32(window.height), samples.baseAddress, Int32(window.width), Int32(window.height),
                                  GDT_Byte, Int32(window.channels), &bandMap, Int32(window.channels),
                                  Int32(window.width * window.channels), 1) == CE_None else { return .readFailed }
        tile.bytes.withUnsafeMutableBufferPointer { out in
            Self.resample(UnsafeBufferPointer(samples), window: window, across: across, down: down, size: size, into: out)
        }
        return .drawn
    }

    /// The source pixels a tile reads, row by row: RGB, or one grey sample a pixel.
    private struct Window {
        let x: Int, y: Int, width: Int, height: Int, channels: Int
        var bytes: Int { width * height * channels }
    }

    /// The taps of the tile's columns and rows, with the warper's scales.
    private func taps(geoTransform: [Double], size: Int, transform: [Double], level: GDALDataset) -> (across: Taps, down: Taps) {
        let pixel = geoTransform[1]
        let span = Double(size) * pixel
        var scaleX = Self.scale(size: size, from: column(geoTransform[0], transform),
                                to: column(geoTransform[0] + span, transform), extent: level.width)
        var scaleY = Self.scale(size: size, from: row(geoTransform[3], transform),
                                to: row(geoTransform[3] - span, transform), extent: level.height)
        if scaleX >= Self.fourSampleScale && scaleY >= Self.fourSampleScale { (scaleX, scaleY) = (1, 1) }
        let across = Taps(centres: (0 ..< size).map { column(geoTransform[0] + (Double($0) + 0.5) * pixel, transform) },
                          scale: scaleX, extent: level.width)
        let down = Taps(centres: (0 ..< size).map { row(geoTransform[3] - (Double($0) + 0.5) * pixel, transform) },
                        scale: scaleY, extent: level.height)
        return (across, down)
    }

    /// The tile's rows top to bottom, each from `down.width` source rows of `samples` resampled
    /// across to the tile's columns, into `out` (RGBA). A source row is resampled once, into a
    /// ring of `down.width` lines: the rows read only move down the source as the tile's do.
    private static func resample(_ samples: UnsafeBufferPointer<UInt8>, window: Window, across: Taps, down: Taps, size: Int,
                                 into out: UnsafeMutableBufferPointer<UInt8>) {
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
            let offset = windowRow * window.width * window.channels
            for index in 0 ..< window.width {
                let sample = offset + index * window.channels
                line[padX + index] = window.channels == 1
                    ? SIMD4(repeating: Float(samples[sample]))
                    : SIMD4(Float(samples[sample]), Float(samples[sample + 1]), Float(samples[sample + 2]), 0)
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
        for tileRow in 0 ..< size where down.first[tileRow] != .min {
            for tap in 0 ..< down.width { bases[tap] = resampled(Int(down.first[tileRow]) + tap) }
            for column in 0 ..< size where across.first[column] != .min {
                var sum = SIMD4<Float>(repeating: 0.5)  // rounded as the warper rounds bytes
                for tap in 0 ..< down.width { sum += down.weights[tileRow * down.width + tap] * ring[bases[tap] + column] }
                let pixel = (tileRow * size + column) * 4
                out[pixel] = byte(sum[0])
                out[pixel + 1] = byte(sum[1])
                out[pixel + 2] = byte(sum[2])
                out[pixel + 3] = 255
            }
        }
    }
}
