internal import CZlib

/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), the checksum of zlib and PNG:
/// it detects every burst error up to 32 bits, which covers a flipped byte or a torn write.
/// zlib's, which reads several bytes a cycle where a byte-wise table reads one.
public enum CRC32 {
    /// The CRC of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var value = UInt(crc)
        var rest = bytes
        // zlib takes a 32-bit length: longer buffers in pieces.
        while !rest.isEmpty {
            let piece = min(rest.count, Int(UInt32.max))
            value = crc32(value, rest.baseAddress!.assumingMemoryBound(to: UInt8.self), UInt32(piece))
            rest = UnsafeRawBufferPointer(rebasing: rest[piece...])
        }
        return UInt32(truncatingIfNeeded: value)
    }

    /// The CRC of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
