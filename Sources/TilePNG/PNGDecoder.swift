internal import CPNGCodec

/// Decodes PNG bytes into RGBA8 images.
///
/// Accepts every colour type (gray, gray+alpha, palette, RGB, RGBA), bit depths
/// 1/2/4/8/16 (16-bit samples are scaled with rounding), Adam7 interlacing and tRNS.
/// No gamma correction is applied. Hostile input ends in a `PNGError`, never a crash.
public enum PNGDecoder {
    /// Largest width or height accepted by default (8192 px → at most 256 MiB of RGBA).
    public static let defaultMaxDimension = 8192

    /// Width and height read from the IHDR chunk without decoding the image
    /// (e.g. to tell 256 px tiles from 512 px ones). Checks the signature, not the CRC.
    public static func size(of data: [UInt8]) throws(PNGError) -> (width: Int, height: Int) {
        var width: UInt32 = 0
        var height: UInt32 = 0
        var status = cpng_status.empty
        let code = data.withUnsafeBufferPointer { buffer in
            cpng_peek_size(buffer.baseAddress, buffer.count, &width, &height, &status)
        }
        guard code == CPNG_OK.rawValue else { throw PNGError(status: status) }
        return (Int(width), Int(height))
    }

    /// Decodes a PNG into straight-alpha RGBA8.
    /// - Parameter maxDimension: widths or heights above it throw `.tooLarge` before any allocation.
    public static func decode(_ data: [UInt8],
                              maxDimension: Int = defaultMaxDimension) throws(PNGError) -> RGBAImage {
        let (width, height) = try size(of: data)
        let limit = max(1, min(maxDimension, Int(Int32.max)))
        guard width <= limit, height <= limit else {
            throw .tooLarge(width: width, height: height, limit: limit)
        }
        var status = cpng_status.empty
        let byteCount = width * height * RGBAImage.bytesPerPixel
        let pixels = data.withUnsafeBufferPointer { input in
            [UInt8](unsafeUninitializedCapacity: byteCount) { output, initialized in
                let code = cpng_decode_rgba8(input.baseAddress, input.count, output.baseAddress,
                                             UInt32(width), UInt32(height), UInt32(limit), &status)
                // libpng wrote every byte only on success; otherwise keep nothing.
                initialized = code == CPNG_OK.rawValue ? byteCount : 0
            }
        }
        guard status.code == CPNG_OK.rawValue else {
            throw PNGError(status: status, width: width, height: height, limit: limit)
        }
        return RGBAImage(uncheckedWidth: width, height: height, pixels: pixels)
    }
}
