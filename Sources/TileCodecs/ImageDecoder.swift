/// Decodes PNG, JPEG or WebP bytes, told apart by their signature, into RGBA8.
public enum ImageDecoder {
    /// Largest width or height accepted by default, for every format (as `PNGDecoder`'s).
    public static let defaultMaxDimension = PNGDecoder.defaultMaxDimension

    /// The format of `data` by its magic bytes; throws `.unknownFormat` for anything else.
    public static func format(of data: [UInt8]) throws(ImageCodecError) -> RasterFormat {
        guard let format = RasterFormat(magic: data) else {
            throw .unknownFormat(leadingBytes: ImageCodecError.leadingHex(data))
        }
        return format
    }

    /// Width and height from the header, without decoding the pixels.
    public static func size(of data: [UInt8]) throws(ImageCodecError) -> (width: Int, height: Int) {
        switch try format(of: data) {
        case .png:
            do { return try PNGDecoder.size(of: data) } catch { throw .png(error) }
        case .jpeg:
            return try JPEGDecoder.size(of: data)
        case .webp:
            return try WebPDecoder.size(of: data)
        }
    }

    /// Decodes `data` into straight-alpha RGBA8 (JPEG comes out opaque).
    /// - Parameter maxDimension: widths or heights above it throw `.tooLarge` before any allocation.
    public static func decode(_ data: [UInt8],
                              maxDimension: Int = defaultMaxDimension) throws(ImageCodecError) -> RGBAImage {
        switch try format(of: data) {
        case .png:
            do { return try PNGDecoder.decode(data, maxDimension: maxDimension) } catch { throw .png(error) }
        case .jpeg:
            return try JPEGDecoder.decode(data, maxDimension: maxDimension)
        case .webp:
            return try WebPDecoder.decode(data, maxDimension: maxDimension)
        }
    }

    /// The accepted side length for a requested limit (at least 1, at most `Int32.max`).
    static func clampedLimit(_ maxDimension: Int) -> Int {
        max(1, min(maxDimension, Int(Int32.max)))
    }
}
