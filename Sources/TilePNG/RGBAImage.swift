internal import CPNGCodec

/// An image of RGBA8 pixels, row-major from the top-left corner, straight alpha.
///
/// Invariant: `pixels.count == width * height * 4` and both sides are ≥ 1.
/// Operations return new values; the type is a plain `Sendable` value.
public struct RGBAImage: Sendable, Equatable {
    /// Bytes per pixel (R, G, B, A).
    public static let bytesPerPixel = 4

    /// Width in pixels.
    public let width: Int
    /// Height in pixels.
    public let height: Int
    /// `width × height × 4` bytes: R, G, B, A per pixel, rows top to bottom.
    public internal(set) var pixels: [UInt8]

    /// An image filled with one colour (transparent by default).
    /// Sizes below 1 are raised to 1 so the invariant always holds.
    public init(width: Int, height: Int, fill: RGBAColor = .clear) {
        self.width = max(width, 1)
        self.height = max(height, 1)
        let count = self.width * self.height
        var bytes = [UInt8](repeating: 0, count: count * Self.bytesPerPixel)
        if fill != .clear {
            for index in 0..<count {
                bytes[index * 4] = fill.red
                bytes[index * 4 + 1] = fill.green
                bytes[index * 4 + 2] = fill.blue
                bytes[index * 4 + 3] = fill.alpha
            }
        }
        self.pixels = bytes
    }

    /// Wraps existing RGBA8 bytes; throws `.invalidImage` when the count is not `width × height × 4`.
    public init(width: Int, height: Int, pixels: [UInt8]) throws(PNGError) {
        guard width >= 1, height >= 1 else {
            throw .invalidImage(width: width, height: height, reason: "width and height must be at least 1")
        }
        let (area, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, area <= Int.max / Self.bytesPerPixel, pixels.count == area * Self.bytesPerPixel else {
            throw .invalidImage(width: width, height: height,
                                reason: "expected width × height × 4 bytes, got \(pixels.count)")
        }
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Internal initializer for operations that already guarantee the invariant.
    init(uncheckedWidth width: Int, height: Int, pixels: [UInt8]) {
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    /// Bytes in one row.
    public var bytesPerRow: Int { width * Self.bytesPerPixel }

    /// Whether (x, y) lies inside the image.
    public func contains(x: Int, y: Int) -> Bool {
        x >= 0 && y >= 0 && x < width && y < height
    }

    /// The pixel at (x, y); `nil` outside the image.
    public func pixel(x: Int, y: Int) -> RGBAColor? {
        guard contains(x: x, y: y) else { return nil }
        let offset = (y * width + x) * Self.bytesPerPixel
        return RGBAColor(red: pixels[offset], green: pixels[offset + 1],
                         blue: pixels[offset + 2], alpha: pixels[offset + 3])
    }

    /// Replaces the pixel at (x, y); points outside the image are ignored (clipped).
    public mutating func setPixel(x: Int, y: Int, to color: RGBAColor) {
        guard contains(x: x, y: y) else { return }
        let offset = (y * width + x) * Self.bytesPerPixel
        pixels[offset] = color.red
        pixels[offset + 1] = color.green
        pixels[offset + 2] = color.blue
        pixels[offset + 3] = color.alpha
    }

    /// Whether every pixel has alpha 255.
    public var isOpaque: Bool {
        pixels.withUnsafeBufferPointer { buffer in
            cpng_rgba8_is_opaque(buffer.baseAddress, width * height) != 0
        }
    }

    /// Throws `.sizeMismatch` unless `other` has this image's size.
    func requireSameSize(as other: RGBAImage) throws(PNGError) {
        guard other.width == width, other.height == height else {
            throw .sizeMismatch(expectedWidth: width, expectedHeight: height,
                                width: other.width, height: other.height)
        }
    }
}
