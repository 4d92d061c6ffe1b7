/// Encodes an `RGBAImage` in a chosen raster format with that format's settings.
public enum ImageEncoder: Sendable, Equatable {
    /// PNG with TilePNG's encoder settings.
    case png(PNGEncoder)
    /// JPEG: quality and the background that transparent pixels are composited over.
    case jpeg(JPEGEncoder)
    /// WebP: lossy quality or lossless, and the encoder's speed/size trade-off.
    case webp(WebPEncoder)

    /// The default encoder of `format`.
    public init(format: RasterFormat) {
        switch format {
        case .png: self = .png(PNGEncoder())
        case .jpeg: self = .jpeg(JPEGEncoder())
        case .webp: self = .webp(WebPEncoder())
        }
    }

    /// The format this encoder writes.
    public var format: RasterFormat {
        switch self {
        case .png: .png
        case .jpeg: .jpeg
        case .webp: .webp
        }
    }

    /// The encoded bytes of `image`.
    public func encode(_ image: RGBAImage) throws(ImageCodecError) -> [UInt8] {
        switch self {
        case .png(let encoder):
            do { return try encoder.encode(image) } catch { throw .png(error) }
        case .jpeg(let encoder):
            return try encoder.encode(image)
        case .webp(let encoder):
            return try encoder.encode(image)
        }
    }
}
