internal import CTurboJPEG

/// Decodes JPEG bytes into opaque RGBA8 through libjpeg-turbo's TurboJPEG API.
///
/// Baseline and progressive, gray, YCbCr and RGB; CMYK is refused as unsupported. libjpeg's
/// warnings (a premature end, damaged entropy data) count as errors: a damaged tile is never
/// served as a half-grey image.
public enum JPEGDecoder {
    /// Width and height from the frame header, without decoding the pixels.
    public static func size(of data: [UInt8]) throws(ImageCodecError) -> (width: Int, height: Int) {
        let handle = try TurboJPEGHandle(decompressing: data)
        var size: (width: Int, height: Int)?
        defer { handle.release(reusable: size != nil) }
        size = try handle.readHeader(data)
        return size!
    }

    /// Decodes `data`; widths or heights above `maxDimension` throw `.tooLarge` before any allocation.
    public static func decode(_ data: [UInt8],
                              maxDimension: Int = ImageDecoder.defaultMaxDimension) throws(ImageCodecError) -> RGBAImage {
        let handle = try TurboJPEGHandle(decompressing: data)
        var code: Int32 = -1
        defer { handle.release(reusable: code == 0) }
        let (width, height) = try handle.readHeader(data)
        let limit = ImageDecoder.clampedLimit(maxDimension)
        guard width <= limit, height <= limit else {
            throw .tooLarge(format: .jpeg, width: width, height: height, limit: limit)
        }
        let byteCount = width * height * RGBAImage.bytesPerPixel
        let pixels = data.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
                code = tjDecompress2(handle.raw, input.baseAddress, UInt(input.count), output.baseAddress,
                                     Int32(width), Int32(width * RGBAImage.bytesPerPixel), Int32(height),
                                     Int32(TJPF_RGBA.rawValue), 0)
                // TurboJPEG writes every row even when it only warns; keep nothing on failure.
                initialized = code == 0 ? byteCount : 0
            }
        }
        guard code == 0 else { throw handle.failure(data) }
        do {
            return try RGBAImage(width: width, height: height, pixels: pixels)
        } catch {
            throw .png(error)
        }
    }
}

/// One TurboJPEG instance for one call (not shared: TurboJPEG handles are not thread-safe),
/// taken from a `TurboJPEGHandlePool` and given back by `release(reusable:)`.
struct TurboJPEGHandle {
    let raw: tjhandle
    private let pool: TurboJPEGHandlePool

    /// A decompressor; refuses data without the JPEG signature before touching libjpeg.
    init(decompressing data: [UInt8]) throws(ImageCodecError) {
        guard data.starts(with: RasterFormat.jpegSignature) else {
            throw data.count < RasterFormat.jpegSignature.count && RasterFormat.jpegSignature.starts(with: data)
                ? .truncated(format: .jpeg)
                : .corrupt(format: .jpeg, reason: "no JPEG SOI marker (FF D8 FF) at the start")
        }
        guard let raw = TurboJPEGHandlePool.decompressors.take() else {
            throw .corrupt(format: .jpeg, reason: "cannot create a TurboJPEG decompressor")
        }
        self.raw = raw
        self.pool = .decompressors
    }

    /// A compressor.
    init(compressing: Void) throws(ImageCodecError) {
        guard let raw = TurboJPEGHandlePool.compressors.take() else {
            throw .encodingFailed(format: .jpeg, reason: "cannot create a TurboJPEG compressor")
        }
        self.raw = raw
        self.pool = .compressors
    }

    /// Gives the instance back for reuse after a call that succeeded; destroys it after a failure
    /// (libjpeg's state after an error is not trusted: reusing it broke the next decode).
    func release(reusable: Bool) {
        if reusable { pool.give(raw) } else { tjDestroy(raw) }
    }

    /// The frame size from the JPEG header.
    func readHeader(_ data: [UInt8]) throws(ImageCodecError) -> (width: Int, height: Int) {
        var width: Int32 = 0, height: Int32 = 0, subsampling: Int32 = 0, colorspace: Int32 = 0
        let code = data.withUnsafeBufferPointer { input in
            tjDecompressHeader3(raw, input.baseAddress, UInt(input.count), &width, &height, &subsampling, &colorspace)
        }
        guard code == 0 else { throw failure(data) }
        guard width > 0, height > 0 else {
            // Data cut before the frame header reads as size 0.
            if case .truncated = failure(data) { throw .truncated(format: .jpeg) }
            throw .corrupt(format: .jpeg, reason: "frame header gives a size of \(width)×\(height) px")
        }
        return (Int(width), Int(height))
    }

    /// The error for the last failed call: `.truncated` when the data lacks its EOI marker
    /// (FF D9, ITU T.81 §B.2.1) — a cut-off download — else `.corrupt` with libjpeg's message.
    func failure(_ data: [UInt8]) -> ImageCodecError {
        if !data.reversed().starts(with: [0xD9, 0xFF]) { return .truncated(format: .jpeg) }
        return .corrupt(format: .jpeg, reason: message)
    }

    /// TurboJPEG's message for the last error on this handle.
    var message: String {
        guard let text = tjGetErrorStr2(raw) else { return "unknown libjpeg-turbo error" }
        return String(cString: text)
    }
}
