/// Every failure of the TileCodecs module, naming the format and what was wrong.
public enum ImageCodecError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The bytes start with none of the PNG, JPEG or WebP signatures.
    case unknownFormat(leadingBytes: String)
    /// The data ends before the image is complete (e.g. a partial download).
    case truncated(format: RasterFormat)
    /// The data is damaged or uses something the decoder does not support.
    case corrupt(format: RasterFormat, reason: String)
    /// The header claims more pixels than accepted; nothing was allocated.
    case tooLarge(format: RasterFormat, width: Int, height: Int, limit: Int)
    /// Encoder settings out of range (e.g. JPEG quality 0).
    case invalidSettings(format: RasterFormat, reason: String)
    /// The library could not encode the image.
    case encodingFailed(format: RasterFormat, reason: String)
    /// A PNG failure, as TilePNG reported it.
    case png(PNGError)

    /// A message that tells an operator what went wrong.
    public var description: String {
        switch self {
        case .unknownFormat(let leadingBytes):
            return "not a PNG, JPEG or WebP image (first bytes: \(leadingBytes))"
        case .truncated(let format):
            return "\(format.displayName) data is truncated: the image ends before it is complete"
        case .corrupt(let format, let reason):
            return "\(format.displayName) data is corrupt: \(reason)"
        case .tooLarge(let format, let width, let height, let limit):
            return "\(format.displayName) is \(width)×\(height) px, above the limit of \(limit) px per side"
        case .invalidSettings(let format, let reason):
            return "invalid \(format.displayName) encoder settings: \(reason)"
        case .encodingFailed(let format, let reason):
            return "cannot encode \(format.displayName): \(reason)"
        case .png(let error):
            return error.description
        }
    }

    /// Up to the first 8 bytes as hex, for `.unknownFormat`.
    static func leadingHex(_ data: [UInt8]) -> String {
        data.isEmpty ? "none, the data is empty" : data.prefix(8).map { hexByte($0) }.joined(separator: " ")
    }

    private static func hexByte(_ byte: UInt8) -> String {
        let digits = String(byte, radix: 16, uppercase: true)
        return byte < 0x10 ? "0" + digits : digits
    }
}

extension RasterFormat {
    /// The name used in messages (`PNG`, `JPEG`, `WebP`).
    public var displayName: String {
        switch self {
        case .png: "PNG"
        case .jpeg: "JPEG"
        case .webp: "WebP"
        }
    }
}
