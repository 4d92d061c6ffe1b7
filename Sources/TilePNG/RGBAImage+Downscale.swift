extension RGBAImage {
    /// Half the width and height: each output pixel is the mean of a 2×2 box
    /// (e.g. a 512 px tile → 256 px). Alpha = round(Σa / 4); colour is the
    /// alpha-weighted mean round(Σca / Σa) (equal to round(Σc / 4) when opaque),
    /// rounded half up in integers. Throws `.invalidImage` for odd widths or heights.
    public func downscaled2x() throws(PNGError) -> RGBAImage {
        guard width % 2 == 0, height % 2 == 0 else {
            throw .invalidImage(width: width, height: height, reason: "box downscale needs even sides")
        }
        let outWidth = width / 2
        let outHeight = height / 2
        let stride = width
        var output = [UInt8](repeating: 0, count: outWidth * outHeight * Self.bytesPerPixel)
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for outY in 0..<outHeight {
                    for outX in 0..<outWidth {
                        let topLeft = (outY * 2 * stride + outX * 2) * 4
                        Self.blend((topLeft, 1), (topLeft + 4, 1),
                                   (topLeft + stride * 4, 1), (topLeft + stride * 4 + 4, 1),
                                   from: source, into: target, at: (outY * outWidth + outX) * 4)
                    }
                }
            }
        }
        return RGBAImage(uncheckedWidth: outWidth, height: outHeight, pixels: output)
    }
}
