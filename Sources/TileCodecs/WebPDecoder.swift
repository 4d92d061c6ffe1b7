internal import CWebP

/// Decodes WebP bytes (lossy or lossless, with or without alpha; still images) into RGBA8
/// through libwebp. Animated WebP is refused.
public enum WebPDecoder {
    /// Width and height from the bitstream header, without decoding the pixels.
    public static func size(of data: [UInt8]) throws(ImageCodecError) -> (width: Int, height: Int) {
        try checkContainer(data)
        var width: Int32 = 0, height: Int32 = 0
        let ok = data.withUnsafeBufferPointer { input in
            WebPGetInfo(input.baseAddress, input.count, &width, &height)
        }
        guard ok != 0, width > 0, height > 0 else {
            throw .corrupt(format: .webp, reason: "no valid VP8, VP8L or VP8X header in the RIFF container")
        }
        return (Int(width), Int(height))
    }

    /// Decodes `data`; widths or heights above `maxDimension` throw `.tooLarge` before any allocation.
    public static func decode(_ data: [UInt8],
                              maxDimension: Int = ImageDecoder.defaultMaxDimension) throws(ImageCodecError) -> RGBAImage {
        let (width, height) = try size(of: data)
        let limit = ImageDecoder.clampedLimit(maxDimension)
        guard width <= limit, height <= limit else {
            throw .tooLarge(format: .webp, width: width, height: height, limit: limit)
        }
        let stride = width * RGBAImage.bytesPerPixel
        let byteCount = stride * height
        var decoded = false
        let pixels = data.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
                decoded = WebPDecodeRGBAInto(input.baseAddress, input.count, output.baseAddress,
                                             byteCount, Int32(stride)) != nil
                initialized = decoded ? byteCount : 0
            }
        }
        guard decoded else {
            throw .corrupt(format: .webp, reason: "libwebp could not decode the bitstream (damaged or animated)")
        }
        do {
            return try RGBAImage(width: width, height: height, pixels: pixels)
        } catch {
            throw .png(error)
        }
    }

    /// Checks the RIFF header (RIFF, little-endian size, "WEBP") against the data's length:
    /// a file shorter than its RIFF size is a cut-off download.
    static func checkContainer(_ data: [UInt8]) throws(ImageCodecError) {
        guard data.count >= riffHeaderSize else {
            throw RasterFormat.riffTag.starts(with: data.prefix(4)) ? .truncated(format: .webp)
                : .corrupt(format: .webp, reason: "no RIFF/WEBP header")
        }
        guard RasterFormat(magic: data) == .webp else {
            throw .corrupt(format: .webp, reason: "no RIFF/WEBP header")
        }
        let riffSize = (0..<4).reduce(0) { $0 | Int(data[4 + $1]) << (8 * $1) }
        guard data.count >= riffSize + 8 else { throw .truncated(format: .webp) }
    }

    /// "RIFF", the 4-byte size, "WEBP" and the first chunk's header (RIFF: 12 + 8 bytes).
    static let riffHeaderSize = 20
}
