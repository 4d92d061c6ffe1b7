import TilePNG

/// Premultiplied colour accumulated over weighted taps: red, green and blue are Σ w·α·c, `alpha`
/// is Σ w·α and `weight` Σ w over the taps that counted.
struct TexelSum {
    var red = 0.0, green = 0.0, blue = 0.0, alpha = 0.0
    var weight = 0.0

    /// The sum divided by its weight (a sample of unit weight); all zero when nothing counted.
    @inline(__always)
    func normalized() -> TexelSum {
        guard weight > 0 else { return TexelSum() }
        let scale = 1 / weight
        return TexelSum(red: red * scale, green: green * scale, blue: blue * scale, alpha: alpha * scale, weight: 1)
    }

    /// Adds a normalized sample.
    @inline(__always)
    mutating func add(_ sample: TexelSum) {
        red += sample.red
        green += sample.green
        blue += sample.blue
        alpha += sample.alpha
    }

    /// Writes the average of `samples` samples as a straight-alpha RGBA8 pixel at `offset`
    /// (samples that were skipped count as transparent).
    @inline(__always)
    func write(to pixels: UnsafeMutableBufferPointer<UInt8>, at offset: Int, samples: Double) {
        guard alpha > 0 else { return }  // the buffer starts transparent
        pixels[offset] = Self.channel(red / alpha)
        pixels[offset + 1] = Self.channel(green / alpha)
        pixels[offset + 2] = Self.channel(blue / alpha)
        pixels[offset + 3] = Self.channel(alpha / samples)
    }

    @inline(__always)
    private static func channel(_ value: Double) -> UInt8 {
        UInt8(min(max(value, 0), 255) + 0.5)  // round half up, without a libm call
    }
}
