// TileCodecs: PNG, JPEG (libjpeg-turbo) and WebP (libwebp) to and from TilePNG's `RGBAImage`.
// Pure functions on immutable values; hostile bytes end in an `ImageCodecError`, never a crash.
@_exported import TilePNG

/// A raster image format the codecs read and write.
///
/// A closed domain: the server's per-layer `TileFormat` maps its raster cases onto these
/// (`png` → `.png`, `jpg` → `.jpeg`, `webp` → `.webp`); vector tiles are not images.
public enum RasterFormat: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// PNG (libpng, through TilePNG).
    case png
    /// JPEG/JFIF (libjpeg-turbo's TurboJPEG API). No alpha channel.
    case jpeg
    /// WebP, lossy (VP8) or lossless (VP8L), with or without alpha (libwebp).
    case webp

    /// The format whose signature starts `bytes`, or `nil` for anything else.
    ///
    /// PNG: the 8-byte signature (PNG §5.2); JPEG: an SOI marker followed by another marker
    /// (FF D8 FF); WebP: a RIFF container of form type "WEBP" (RIFF header, 12 bytes).
    public init?(magic bytes: [UInt8]) {
        if bytes.starts(with: RasterFormat.pngSignature) {
            self = .png
        } else if bytes.starts(with: RasterFormat.jpegSignature) {
            self = .jpeg
        } else if bytes.count >= 12, bytes.starts(with: RasterFormat.riffTag),
                  Array(bytes[8..<12]) == RasterFormat.webpTag {
            self = .webp
        } else {
            return nil
        }
    }

    /// The lowercase name (`png`, `jpeg`, `webp`).
    public var description: String { rawValue }

    static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    static let jpegSignature: [UInt8] = [0xFF, 0xD8, 0xFF]
    static let riffTag: [UInt8] = Array("RIFF".utf8)
    static let webpTag: [UInt8] = Array("WEBP".utf8)
}
