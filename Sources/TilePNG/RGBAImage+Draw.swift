extension RGBAImage {
    /// Sets every pixel of the rectangle to `color` (replacing, not blending);
    /// the part outside the image is clipped.
    public mutating func fillRectangle(x: Int, y: Int, width rectWidth: Int, height rectHeight: Int,
                                       color: RGBAColor) {
        let left = max(x, 0)
        let top = max(y, 0)
        let right = min(x + rectWidth, width)
        let bottom = min(y + rectHeight, height)
        guard left < right, top < bottom else { return }
        let bytes = [color.red, color.green, color.blue, color.alpha]
        pixels.withUnsafeMutableBufferPointer { buffer in
            for row in top..<bottom {
                for column in left..<right {
                    let offset = (row * width + column) * Self.bytesPerPixel
                    for channel in 0..<Self.bytesPerPixel { buffer[offset + channel] = bytes[channel] }
                }
            }
        }
    }

    /// Draws the 1-pixel outline of the rectangle (its outermost rows and columns).
    public mutating func strokeRectangle(x: Int, y: Int, width rectWidth: Int, height rectHeight: Int,
                                         color: RGBAColor) {
        guard rectWidth > 0, rectHeight > 0 else { return }
        fillRectangle(x: x, y: y, width: rectWidth, height: 1, color: color)
        fillRectangle(x: x, y: y + rectHeight - 1, width: rectWidth, height: 1, color: color)
        fillRectangle(x: x, y: y, width: 1, height: rectHeight, color: color)
        fillRectangle(x: x + rectWidth - 1, y: y, width: 1, height: rectHeight, color: color)
    }

    /// Draws `text` with `BitmapFont`, its top-left corner at (x, y), each font pixel
    /// a `scale`×`scale` square (scale < 1 counts as 1). Only ink pixels are set.
    /// - Returns: the drawn width in pixels, `BitmapFont.width(of:scale:)`.
    @discardableResult
    public mutating func drawText(_ text: String, x: Int, y: Int, scale: Int = 1,
                                  color: RGBAColor) -> Int {
        let scale = max(scale, 1)
        for (index, character) in text.enumerated() {
            let originX = x + index * BitmapFont.advance * scale
            let glyph = BitmapFont.glyph(for: character)
            for (row, bits) in glyph.enumerated() {
                for column in 0..<BitmapFont.glyphWidth
                where bits & (1 << (BitmapFont.glyphWidth - 1 - column)) != 0 {
                    fillRectangle(x: originX + column * scale, y: y + row * scale,
                                  width: scale, height: scale, color: color)
                }
            }
        }
        return BitmapFont.width(of: text, scale: scale)
    }
}
