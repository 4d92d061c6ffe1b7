internal import CWebP

/// Encodes RGBA8 images as WebP through libwebp: lossy (VP8 + alpha) or lossless (VP8L).
/// Fully opaque images are written without an alpha plane.
public struct WebPEncoder: Sendable, Equatable {
    /// Default lossy quality: 80, libwebp's cwebp and Pillow's default alike.
    public static let defaultQuality = 80
    /// Default speed/size trade-off, libwebp's `method` 0 (fastest) ... 6 (smallest). See
    /// `scripts/bench-imaging.sh` for the measured speed and size against Pillow's method 4.
    public static let defaultMethod = 2

    /// Lossy quality 0 ... 100; for lossless, the compression effort 0 ... 100.
    public var quality: Int
    /// libwebp's `method`, 0 ... 6.
    public var method: Int
    /// Lossless (VP8L) instead of lossy (VP8).
    public var lossless: Bool

    /// An encoder with the given settings.
    public init(quality: Int = defaultQuality, method: Int = defaultMethod, lossless: Bool = false) {
        self.quality = quality
        self.method = method
        self.lossless = lossless
    }

    /// WebP bytes for `image`. Throws `.invalidSettings` for a quality or method out of range.
    public func encode(_ image: RGBAImage) throws(ImageCodecError) -> [UInt8] {
        guard (0...100).contains(quality) else {
            throw .invalidSettings(format: .webp, reason: "quality \(quality) is not in 0...100")
        }
        guard (0...6).contains(method) else {
            throw .invalidSettings(format: .webp, reason: "method \(method) is not in 0...6")
        }
        var config = WebPConfig()
        guard WebPConfigInit(&config) != 0 else {
            throw .encodingFailed(format: .webp, reason: "libwebp version mismatch (WebPConfigInit)")
        }
        config.quality = Float(quality)
        config.method = Int32(method)
        config.lossless = lossless ? 1 : 0
        guard WebPValidateConfig(&config) != 0 else {
            throw .invalidSettings(format: .webp, reason: "libwebp refused quality \(quality), method \(method)")
        }
        var picture = WebPPicture()
        guard WebPPictureInit(&picture) != 0 else {
            throw .encodingFailed(format: .webp, reason: "libwebp version mismatch (WebPPictureInit)")
        }
        defer { WebPPictureFree(&picture) }
        picture.use_argb = lossless ? 1 : 0
        picture.width = Int32(image.width)
        picture.height = Int32(image.height)
        let stride = Int32(image.bytesPerRow)
        let imported = image.pixels.withUnsafeBufferPointer { input in
            image.isOpaque ? WebPPictureImportRGBX(&picture, input.baseAddress, stride)
                : WebPPictureImportRGBA(&picture, input.baseAddress, stride)
        }
        guard imported != 0 else {
            throw .encodingFailed(format: .webp, reason: "out of memory importing \(image.width)×\(image.height) px")
        }
        var writer = WebPMemoryWriter()
        WebPMemoryWriterInit(&writer)
        defer { WebPMemoryWriterClear(&writer) }
        let encoded = withUnsafeMutablePointer(to: &writer) { sink in
            picture.writer = WebPMemoryWrite
            picture.custom_ptr = UnsafeMutableRawPointer(sink)
            return WebPEncode(&config, &picture)
        }
        guard encoded != 0, let memory = writer.mem else {
            throw .encodingFailed(format: .webp, reason: "libwebp error code \(picture.error_code.rawValue)")
        }
        return Array(UnsafeBufferPointer(start: memory, count: writer.size))
    }
}
