extension RGBAImage {
    /// This image at twice the width and height, bilinear with pixel-centre alignment:
    /// each output pixel mixes its 2×2 nearest source pixels with weights 9, 3, 3, 1
    /// (/16), edges clamped. Colours are alpha-weighted (equivalent to interpolating
    /// premultiplied values) so transparent pixels do not bleed; every channel is
    /// rounded half up, exactly in integers.
    public func upscaled2x() -> RGBAImage {
        bilinear2x(x: 0, y: 0, width: width, height: height)
    }

    /// The `quadrant` quarter enlarged to this image's full size, e.g. the fallback
    /// for a missing child tile made from its parent. Samples across the quadrant's
    /// inner edges come from the neighbouring quadrant, so the result equals that
    /// quadrant of `upscaled2x()`. Throws `.invalidImage` for odd widths or heights.
    public func upscaledQuadrant(_ quadrant: Quadrant) throws(PNGError) -> RGBAImage {
        guard width % 2 == 0, height % 2 == 0 else {
            throw .invalidImage(width: width, height: height, reason: "quadrant upscale needs even sides")
        }
        let halfWidth = width / 2
        let halfHeight = height / 2
        return bilinear2x(x: quadrant.column * halfWidth, y: quadrant.row * halfHeight,
                          width: halfWidth, height: halfHeight)
    }

    /// For output index `2k + p` of a region starting at `origin`: the nearer source
    /// index (weight 3) and the other neighbour (weight 1), clamped to `0..<limit`.
    private static func taps(origin: Int, count: Int, limit: Int) -> [(near: Int, far: Int)] {
        (0..<(count * 2)).map { index in
            let near = origin + index / 2
            let far = index % 2 == 0 ? near - 1 : near + 1
            return (near, min(max(far, 0), limit - 1))
        }
    }

    /// Bilinear ×2 of the region (x, y, width, height), sampling the whole image.
    private func bilinear2x(x: Int, y: Int, width regionWidth: Int, height regionHeight: Int) -> RGBAImage {
        let columns = Self.taps(origin: x, count: regionWidth, limit: width)
        let rows = Self.taps(origin: y, count: regionHeight, limit: height)
        let outWidth = regionWidth * 2
        var output = [UInt8](repeating: 0, count: outWidth * regionHeight * 2 * Self.bytesPerPixel)
        let stride = width
        pixels.withUnsafeBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                for (outY, row) in rows.enumerated() {
                    for (outX, column) in columns.enumerated() {
                        Self.blend(((row.near * stride + column.near) * 4, 9),
                                   ((row.near * stride + column.far) * 4, 3),
                                   ((row.far * stride + column.near) * 4, 3),
                                   ((row.far * stride + column.far) * 4, 1),
                                   from: source, into: target, at: (outY * outWidth + outX) * 4)
                    }
                }
            }
        }
        return RGBAImage(uncheckedWidth: outWidth, height: regionHeight * 2, pixels: output)
    }
}
