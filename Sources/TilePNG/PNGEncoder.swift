internal import CPNGCodec

/// Encodes RGBA8 images as PNG with a chosen zlib level and row filter.
///
/// Fully opaque images are written as 8-bit RGB (25% fewer raw bytes), others as RGBA.
public struct PNGEncoder: Sendable, Equatable {
    /// The PNG row filter (PNG spec §9) libpng may use for each row.
    public enum Filter: Sendable, Equatable, CaseIterable {
        /// No filtering.
        case none
        /// Difference to the pixel on the left.
        case sub
        /// Difference to the pixel above.
        case up
        /// Difference to the average of left and above.
        case average
        /// Paeth predictor.
        case paeth
        /// libpng chooses per row among all five (minimum sum of absolute differences).
        case adaptive
    }

    /// Default zlib level: 4. Deflate is most of a derived tile's cost at zlib's usual level 6;
    /// on the world's derived `@2x` tiles level 4 with the "up" filter made them about twice as
    /// fast as Pillow's level 6 for 5.6 % larger files (`scripts/bench-imaging.sh`).
    public static let defaultCompressionLevel = 4
    /// Default filter choice: "up" alone (pixel above) is both faster and, at levels ≤ 6, about as
    /// small as libpng's adaptive search on these tiles; see `defaultCompressionLevel`.
    public static let defaultFilter = Filter.up

    /// zlib compression level, 0 (store) ... 9 (smallest, slowest).
    public var compressionLevel: Int
    /// Row filter choice.
    public var filter: Filter
    /// Whether to write opaque images as RGB instead of RGBA.
    public var dropsOpaqueAlpha: Bool

    /// An encoder; the defaults are the measured size/speed balance above.
    public init(compressionLevel: Int = defaultCompressionLevel, filter: Filter = defaultFilter,
                dropsOpaqueAlpha: Bool = true) {
        self.compressionLevel = compressionLevel
        self.filter = filter
        self.dropsOpaqueAlpha = dropsOpaqueAlpha
    }

    /// PNG bytes for `image`. Throws `.invalidSettings` for a level outside 0...9.
    public func encode(_ image: RGBAImage) throws(PNGError) -> [UInt8] {
        guard (0...9).contains(compressionLevel) else {
            throw .invalidSettings(reason: "compression level \(compressionLevel) is not in 0...9")
        }
        var params = cpng_encode_params()
        params.width = UInt32(image.width)
        params.height = UInt32(image.height)
        params.bit_depth = 8
        params.compression_level = Int32(compressionLevel)
        params.filters = filter.libpngMask
        let writesRGB = dropsOpaqueAlpha && image.isOpaque
        params.color_type = writesRGB ? Int32(CPNG_COLOR_RGB) : Int32(CPNG_COLOR_RGBA)
        params.strip_filler = writesRGB ? 1 : 0
        return try PNGEncoder.encode(rows: image.pixels, rowStride: image.bytesPerRow, params: params)
    }

    /// Runs `cpng_encode` and copies the result out of the C buffer.
    static func encode(rows: [UInt8], rowStride: Int,
                       params: cpng_encode_params) throws(PNGError) -> [UInt8] {
        var params = params
        var buffer = cpng_buffer()
        var status = cpng_status.empty
        let code = rows.withUnsafeBufferPointer { input in
            cpng_encode(input.baseAddress, rowStride, &params, &buffer, &status)
        }
        defer { cpng_buffer_free(&buffer) }
        guard code == CPNG_OK.rawValue, let data = buffer.data else { throw PNGError(status: status) }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }
}

extension PNGEncoder.Filter {
    /// The matching `PNG_FILTER_*` mask.
    var libpngMask: Int32 {
        switch self {
        case .none: Int32(CPNG_FILTER_NONE)
        case .sub: Int32(CPNG_FILTER_SUB)
        case .up: Int32(CPNG_FILTER_UP)
        case .average: Int32(CPNG_FILTER_AVG)
        case .paeth: Int32(CPNG_FILTER_PAETH)
        case .adaptive: Int32(CPNG_FILTER_ALL)
        }
    }
}
