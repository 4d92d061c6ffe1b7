import TileProviders

/// The 8-byte signature every PNG file starts with (PNG spec §5.2): `TileFormat.png`'s magic.
enum PNGSignature {
    static let bytes: [UInt8] = TileFormat.pngSignature

    /// Whether `data` starts like a PNG.
    static func matches(_ data: [UInt8]) -> Bool { TileFormat.png.matches(data) }
}
