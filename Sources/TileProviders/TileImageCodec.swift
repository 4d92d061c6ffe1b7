import TileCodecs
import TilePNG

/// The one place derived tiles (`@2x` from children, 512→256, composites, `/static`, the
/// transparent empty tile) decode and encode images, by the layer's format: PNG through libpng,
/// JPEG through libjpeg-turbo and WebP through libwebp (`TileCodecs`). Vector tiles are not drawn.
public enum TileImageCodec {
    /// Why a derived tile of a format cannot be made.
    public struct Unsupported: Error, Sendable, Equatable, CustomStringConvertible {
        /// The format.
        public var format: TileFormat

        /// Derived tiles of `format` cannot be made.
        public init(format: TileFormat) {
            self.format = format
        }

        public var description: String {
            format.isRaster
                ? "derived \(format.rawValue) tiles (@2x, 512→256, composites, /static, transparent empty tiles) need the \(format.displayName) codec"
                : "vector tiles (\(format.rawValue)) cannot be drawn: no @2x, composite, /static or transparent empty tile"
        }
    }

    /// Whether derived tiles of `format` can be made (decoded, drawn and encoded).
    public static func canDerive(_ format: TileFormat) -> Bool {
        switch format {
        case .png, .jpg, .webp: return true
        case .pbf: return false
        }
    }

    /// The image in `data`, a tile of `format`.
    public static func decode(_ data: [UInt8], format: TileFormat) throws -> RGBAImage {
        switch format {
        case .png: return try PNGDecoder.decode(data)
        case .jpg: return try JPEGDecoder.decode(data)
        case .webp: return try WebPDecoder.decode(data)
        case .pbf: throw Unsupported(format: format)
        }
    }

    /// `image` encoded as a tile of `format`, with `pngEncoder`'s settings for PNG and `quality`
    /// (1-100) for JPEG and WebP (nil: their defaults, 85 and 80). JPEG has no alpha: transparent
    /// pixels are drawn over white.
    public static func encode(
        _ image: RGBAImage, format: TileFormat, pngEncoder: PNGEncoder = PNGEncoder(), quality: Int? = nil
    ) throws -> [UInt8] {
        switch format {
        case .png: return try pngEncoder.encode(image)
        case .jpg: return try JPEGEncoder(quality: quality ?? JPEGEncoder.defaultQuality).encode(image)
        case .webp: return try WebPEncoder(quality: quality ?? WebPEncoder.defaultQuality).encode(image)
        case .pbf: throw Unsupported(format: format)
        }
    }
}
