extension RGBAImage {
    /// The image composited over an opaque `background` (straight alpha, "over" operator,
    /// rounded to nearest): every pixel comes out with alpha 255. For formats without alpha.
    public func flattened(over background: RGBAColor) -> RGBAImage {
        var out = pixels
        let backdrop = [Int(background.red), Int(background.green), Int(background.blue)]
        out.withUnsafeMutableBufferPointer { buffer in
            var offset = 0
            while offset < buffer.count {
                let alpha = Int(buffer[offset + 3])
                if alpha != 255 {
                    for channel in 0..<3 {
                        let blended = Int(buffer[offset + channel]) * alpha + backdrop[channel] * (255 - alpha)
                        buffer[offset + channel] = UInt8((blended + 127) / 255)
                    }
                    buffer[offset + 3] = 255
                }
                offset += RGBAImage.bytesPerPixel
            }
        }
        // Same size and byte count as `self`, so the invariant holds.
        return try! RGBAImage(width: width, height: height, pixels: out)
    }
}
