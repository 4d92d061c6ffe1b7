import TilePNG

extension WarpedTile {
    /// The tile as an RGBA image (grey drawn into red, green and blue; values rescaled linearly
    /// from `rescale` to 0…255, rounded and clamped); nil when no pixel holds data.
    /// (8-bit samples move into the image: the tile's buffer is left empty.)
    mutating func image(rescale: ClosedRange<Double>?) -> RGBAImage? {
        if floats.isEmpty && channels == 4 { return rgbaImage() }
        let count = size * size
        var pixels = [UInt8](repeating: 0, count: count * 4)
        var anyData = false
        let grey = channels == 2
        let low = Float(rescale?.lowerBound ?? 0)
        let scale = Float(255 / max(Double.ulpOfOne, (rescale?.upperBound ?? 255) - (rescale?.lowerBound ?? 0)))
        pixels.withUnsafeMutableBufferPointer { out in
            for pixel in 0 ..< count {
                let base = pixel * channels
                let alpha = floats.isEmpty ? bytes[base + channels - 1] : Self.clamped(floats[base + channels - 1])
                guard alpha != 0 else { continue }
                anyData = true
                for channel in 0 ..< 3 {
                    let sample = base + (grey ? 0 : channel)
                    out[pixel * 4 + channel] = floats.isEmpty ? bytes[sample] : Self.clamped((floats[sample] - low) * scale)
                }
                out[pixel * 4 + 3] = alpha
            }
        }
        guard anyData else { return nil }
        return try? RGBAImage(width: size, height: size, pixels: pixels)
    }

    /// 8-bit samples read as RGBA: used as they are, colour cleared where there is no data.
    private mutating func rgbaImage() -> RGBAImage? {
        var pixels: [UInt8] = []
        swap(&pixels, &bytes)
        var anyData = false
        pixels.withUnsafeMutableBufferPointer { buffer in
            for base in stride(from: 0, to: buffer.count, by: 4) {
                if buffer[base + 3] == 0 {
                    buffer[base] = 0; buffer[base + 1] = 0; buffer[base + 2] = 0
                } else {
                    anyData = true
                }
            }
        }
        return anyData ? try? RGBAImage(width: size, height: size, pixels: pixels) : nil
    }

    private static func clamped(_ value: Float) -> UInt8 {
        guard value.isFinite else { return 0 }
        return UInt8(max(0, min(255, value.rounded())))
    }
}
