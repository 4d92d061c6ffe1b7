internal import CTurboJPEG

/// Encodes RGBA8 images as baseline JPEG (JFIF) through libjpeg-turbo.
///
/// JPEG has no alpha channel: pixels that are not opaque are composited over `background`
/// first (white by default, as browsers show a transparent tile over a blank map; a layer
/// passes its own background colour). Chroma is subsampled 4:2:0, like Pillow's and cjpeg's
/// defaults, which is what imagery tiles use.
public struct JPEGEncoder: Sendable, Equatable {
    /// Default quality: 85, a common imagery-tile setting (visually lossless on aerial photos,
    /// about half the bytes of quality 95).
    public static let defaultQuality = 85

    /// Quality 1 (smallest) ... 100 (best).
    public var quality: Int
    /// The opaque colour transparent pixels are composited over (its alpha is ignored).
    public var background: RGBAColor

    /// An encoder with the given quality and background.
    public init(quality: Int = defaultQuality, background: RGBAColor = .white) {
        self.quality = quality
        self.background = background
    }

    /// JPEG bytes for `image`. Throws `.invalidSettings` for a quality outside 1...100.
    public func encode(_ image: RGBAImage) throws(ImageCodecError) -> [UInt8] {
        guard (1...100).contains(quality) else {
            throw .invalidSettings(format: .jpeg, reason: "quality \(quality) is not in 1...100")
        }
        let pixels = image.isOpaque ? image.pixels : image.flattened(over: background).pixels
        let handle = try TurboJPEGHandle(compressing: ())
        var output: UnsafeMutablePointer<UInt8>? = nil
        var size: UInt = 0
        var code: Int32 = -1
        defer { handle.release(reusable: code == 0) }
        code = pixels.withUnsafeBufferPointer { input in
            // TJPF_RGBX: the fourth byte (alpha, now 255 or ignored) is skipped without a copy.
            tjCompress2(handle.raw, input.baseAddress, Int32(image.width), Int32(image.bytesPerRow),
                        Int32(image.height), Int32(TJPF_RGBX.rawValue), &output, &size,
                        Int32(TJSAMP_420.rawValue), Int32(quality), 0)
        }
        defer { if let output { tjFree(output) } }
        guard code == 0, let output else {
            throw .encodingFailed(format: .jpeg, reason: handle.message)
        }
        return Array(UnsafeBufferPointer(start: output, count: Int(size)))
    }
}
