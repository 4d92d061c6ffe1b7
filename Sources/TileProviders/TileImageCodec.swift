import TilePNG

/// The one place derived tiles (`@2x` from children, 512→256, composites, `/static`, the
/// transparent empty tile) decode and encode images, by the layer's format. PNG works today;
/// JPEG and WebP arrive with the codecs of the `TileCodecs` module: plug them in here (the three
/// `switch`es below) and every derived tile of those formats follows.
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
                ? "derived \(format.rawValue) tiles (@2x, 512→256, composites, /static, transparent empty tiles) need the \(format.displayName) codec, which this build does not have yet"
                : "vector tiles (\(format.rawValue)) cannot be drawn: no @2x, composite, /static or transparent empty tile"
        }
    }

    /// Whether derived tiles of `format` can be made (decoded, drawn and encoded).
    public static func canDerive(_ format: TileFormat) -> Bool {
        switch format {
        case .png: return true
        case .jpg, .webp, .pbf: return false  // JPEG and WebP: plug the TileCodecs codecs in here.
        }
    }

    /// The image in `data`, a tile of `format`.
    public static func decode(_ data: [UInt8], format: TileFormat) throws -> RGBAImage {
        switch format {
        case .png: return try PNGDecoder.decode(data)
        case .jpg, .webp, .pbf: throw Unsupported(format: format)
        }
    }

    /// `image` encoded as a tile of `format`, with `pngEncoder`'s settings for PNG.
    public static func encode(_ image: RGBAImage, format: TileFormat, pngEncoder: PNGEncoder = PNGEncoder()) throws -> [UInt8] {
        switch format {
        case .png: return try pngEncoder.encode(image)
        case .jpg, .webp, .pbf: throw Unsupported(format: format)
        }
    }
}
