/// The 8-byte signature every PNG file starts with (PNG spec §5.2).
enum PNGSignature {
    static let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    /// Whether `data` starts like a PNG.
    static func matches(_ data: [UInt8]) -> Bool {
        data.count > bytes.count && data.prefix(bytes.count).elementsEqual(bytes)
    }
}
