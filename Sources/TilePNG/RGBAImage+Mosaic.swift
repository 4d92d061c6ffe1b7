extension RGBAImage {
    /// Places four equal-size images in a 2×2 grid (pixel-exact copy), e.g. four
    /// 256 px child tiles → one 512 px tile. Throws `.sizeMismatch` if sizes differ.
    public static func mosaic2x2(nw: RGBAImage, ne: RGBAImage,
                                 sw: RGBAImage, se: RGBAImage) throws(PNGError) -> RGBAImage {
        for other in [ne, sw, se] { try nw.requireSameSize(as: other) }
        let width = nw.width * 2
        let height = nw.height * 2
        let rowBytes = nw.bytesPerRow
        var pixels = [UInt8](repeating: 0, count: width * height * bytesPerPixel)
        pixels.withUnsafeMutableBufferPointer { output in
            for (tile, quadrant) in [(nw, Quadrant.northWest), (ne, .northEast), (sw, .southWest), (se, .southEast)] {
                tile.pixels.withUnsafeBufferPointer { input in
                    for y in 0..<tile.height {
                        let target = ((quadrant.row * tile.height + y) * width + quadrant.column * tile.width) * 4
                        // Both buffers are non-empty (image invariant), so baseAddress exists.
                        (output.baseAddress! + target).update(from: input.baseAddress! + y * rowBytes,
                                                              count: rowBytes)
                    }
                }
            }
        }
        return RGBAImage(uncheckedWidth: width, height: height, pixels: pixels)
    }

    /// The `quadrant` quarter of this image (`width/2 × height/2`, rounded down).
    /// Throws `.invalidImage` for an image with a side of 1 px.
    public func cropped(to quadrant: Quadrant) throws(PNGError) -> RGBAImage {
        let halfWidth = width / 2
        let halfHeight = height / 2
        guard halfWidth >= 1, halfHeight >= 1 else {
            throw .invalidImage(width: width, height: height, reason: "too small to split into quadrants")
        }
        return cropped(x: quadrant.column * halfWidth, y: quadrant.row * halfHeight,
                       width: halfWidth, height: halfHeight)
    }

    /// The rectangle (x, y, w, h), which the caller guarantees to lie inside the image.
    func cropped(x: Int, y: Int, width cropWidth: Int, height cropHeight: Int) -> RGBAImage {
        var pixels = [UInt8]()
        pixels.reserveCapacity(cropWidth * cropHeight * Self.bytesPerPixel)
        for row in y..<(y + cropHeight) {
            let start = (row * width + x) * Self.bytesPerPixel
            pixels.append(contentsOf: self.pixels[start..<(start + cropWidth * Self.bytesPerPixel)])
        }
        return RGBAImage(uncheckedWidth: cropWidth, height: cropHeight, pixels: pixels)
    }
}
