extension RGBAImage {
    /// `self` drawn over `bottom` with the Porter-Duff "over" operator, `self`'s alpha
    /// scaled by `opacity`. Throws `.sizeMismatch` unless both have the same size.
    public func composited(over bottom: RGBAImage, opacity: Double = 1) throws(PNGError) -> RGBAImage {
        try Self.composite([CompositeLayer(bottom), CompositeLayer(self, opacity: opacity)])
    }

    /// Stacks `layers` bottom to top with Porter-Duff "over", starting from transparent.
    ///
    /// Works in premultiplied alpha with `Double` accumulators (no rounding between
    /// layers): for each layer, aₜ = a/255 · opacity, C ← c·aₜ + C·(1 − aₜ),
    /// A ← aₜ + A·(1 − aₜ). The result is converted back to straight alpha once:
    /// alpha = round(255·A), colour = round(C / A) (0 where A = 0), halves rounded up.
    /// Throws `.noLayers` for an empty list and `.sizeMismatch` for unequal sizes.
    public static func composite(_ layers: [CompositeLayer]) throws(PNGError) -> RGBAImage {
        guard let base = layers.first?.image else { throw .noLayers }
        for layer in layers.dropFirst() { try base.requireSameSize(as: layer.image) }
        let pixelCount = base.width * base.height
        // Premultiplied accumulator: colour·alpha in 0...255 and alpha in 0...1.
        var accumulator = [Double](repeating: 0, count: pixelCount * bytesPerPixel)
        accumulator.withUnsafeMutableBufferPointer { sums in
            for layer in layers {
                let opacity = layer.clampedOpacity
                guard opacity > 0 else { continue }
                layer.image.pixels.withUnsafeBufferPointer { top in
                    blendOver(top, opacity: opacity, into: sums)
                }
            }
        }
        var pixels = [UInt8](repeating: 0, count: pixelCount * bytesPerPixel)
        accumulator.withUnsafeBufferPointer { sums in
            pixels.withUnsafeMutableBufferPointer { output in
                for index in stride(from: 0, to: output.count, by: bytesPerPixel) {
                    let alpha = sums[index + 3]
                    guard alpha > 0 else { continue }
                    output[index + 3] = channel(alpha * 255)
                    output[index] = channel(sums[index] / alpha)
                    output[index + 1] = channel(sums[index + 1] / alpha)
                    output[index + 2] = channel(sums[index + 2] / alpha)
                }
            }
        }
        return RGBAImage(uncheckedWidth: base.width, height: base.height, pixels: pixels)
    }

    /// One "over" step of straight-alpha `top` onto the premultiplied `sums`.
    private static func blendOver(_ top: UnsafeBufferPointer<UInt8>, opacity: Double,
                                  into sums: UnsafeMutableBufferPointer<Double>) {
        for index in stride(from: 0, to: top.count, by: bytesPerPixel) {
            let topAlpha = Double(top[index + 3]) / 255 * opacity
            guard topAlpha > 0 else { continue }
            let keep = 1 - topAlpha
            sums[index] = Double(top[index]) * topAlpha + sums[index] * keep
            sums[index + 1] = Double(top[index + 1]) * topAlpha + sums[index + 1] * keep
            sums[index + 2] = Double(top[index + 2]) * topAlpha + sums[index + 2] * keep
            sums[index + 3] = topAlpha + sums[index + 3] * keep
        }
    }

    /// A 0...255 value rounded half up and clamped into a byte.
    private static func channel(_ value: Double) -> UInt8 {
        UInt8(min(max(value.rounded(.toNearestOrAwayFromZero), 0), 255))
    }
}
