/// CRC-32 (IEEE 802.3, reflected, polynomial 0xEDB88320), the checksum of zlib and PNG:
/// it detects every burst error up to 32 bits, which covers a flipped byte or a torn write.
public enum CRC32 {
    private static let polynomial: UInt32 = 0xEDB8_8320

    private static let table: [UInt32] = (0 ..< 256).map { index in
        var value = UInt32(index)
        for _ in 0 ..< 8 { value = value & 1 == 1 ? (value >> 1) ^ polynomial : value >> 1 }
        return value
    }

    /// The CRC of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        table.withUnsafeBufferPointer { table in
            for byte in bytes { value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8) }
        }
        return ~value
    }

    /// The CRC of `bytes`, continuing from `crc` (0 to start).
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
