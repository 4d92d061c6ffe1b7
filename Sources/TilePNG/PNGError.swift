/// Every failure of the TilePNG module: decoding, encoding and image operations.
public enum PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes do not start with the PNG signature and an IHDR chunk.
    case notPNG(reason: String)
    /// The data ends before the image is complete (e.g. a partial download).
    case truncated
    /// The data is damaged or invalid: bad CRC, bad zlib stream, invalid header fields.
    case corrupt(reason: String)
    /// The header claims more pixels than the decoder accepts; nothing was allocated.
    case tooLarge(width: Int, height: Int, limit: Int)
    /// An allocation failed inside libpng or the codec.
    case outOfMemory(reason: String)
    /// Encoder settings are out of range (e.g. compression level 12).
    case invalidSettings(reason: String)
    /// An image's pixel buffer does not hold `width × height × 4` bytes, or a size is not usable.
    case invalidImage(width: Int, height: Int, reason: String)
    /// Two images that must have the same size do not.
    case sizeMismatch(expectedWidth: Int, expectedHeight: Int, width: Int, height: Int)
    /// A composite was asked for with no layers.
    case noLayers

    /// A message that tells an operator what went wrong.
    public var description: String {
        switch self {
        case .notPNG(let reason):
            return "not a PNG image: \(reason)"
        case .truncated:
            return "PNG data is truncated: the image ends before it is complete"
        case .corrupt(let reason):
            return "PNG data is corrupt: \(reason)"
        case .tooLarge(let width, let height, let limit):
            return "PNG is \(width)×\(height) px, above the limit of \(limit) px per side"
        case .outOfMemory(let reason):
            return "out of memory while processing a PNG: \(reason)"
        case .invalidSettings(let reason):
            return "invalid PNG encoder settings: \(reason)"
        case .invalidImage(let width, let height, let reason):
            return "invalid \(width)×\(height) image: \(reason)"
        case .sizeMismatch(let expectedWidth, let expectedHeight, let width, let height):
            return "image is \(width)×\(height) px but \(expectedWidth)×\(expectedHeight) px was expected"
        case .noLayers:
            return "cannot composite an empty list of layers"
        }
    }
}
