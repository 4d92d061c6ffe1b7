// When an access-log line was written, kept as the bytes a line starts with.

/// When a line was written, "YYYY-MM-DDTHH:MM:SS.mmmZ" (RFC 3339, UTC): 24 bytes kept as three
/// little-endian words, so a line copies three words. The log sets the second's 19 bytes once a
/// second and the milliseconds' three digits when they change.
struct HTTPAccessLogTime {
    /// Bytes 0–7, 8–15 and 16–23 of the stamp, lowest byte first.
    private(set) var words: (UInt64, UInt64, UInt64)

    /// The stamp of `second` ("YYYY-MM-DDTHH:MM:SS", 19 bytes) and `millis` (clamped to 0–999).
    init(second: [UInt8], millis: Int) {
        words = (0, 0, 0)
        set(second: second)
        set(millis: millis)
    }

    /// Bytes 0–18: the second.
    mutating func set(second: [UInt8]) {
        precondition(second.count == 19, "HTTPAccessLogTime: a second is 19 bytes")
        second.withUnsafeBytes { bytes in
            words.0 = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self))
            words.1 = UInt64(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        }
        // Bytes 16–18 (":SS"), byte 19 '.', byte 23 'Z'; bytes 20–22 (the milliseconds) are kept.
        let seconds = UInt64(second[16]) | UInt64(second[17]) << 8 | UInt64(second[18]) << 16
        words.2 = seconds | UInt64(UInt8(ascii: ".")) << 24 | words.2 & 0x00FF_FFFF_0000_0000
            | UInt64(UInt8(ascii: "Z")) << 56
    }

    /// Bytes 20–22: the milliseconds' three digits.
    mutating func set(millis: Int) {
        let millis = min(999, max(0, millis))
        let digits = UInt64(UInt8(ascii: "0") + UInt8(millis / 100))
            | UInt64(UInt8(ascii: "0") + UInt8(millis / 10 % 10)) << 8
            | UInt64(UInt8(ascii: "0") + UInt8(millis % 10)) << 16
        words.2 = words.2 & ~0x00FF_FFFF_0000_0000 | digits << 32
    }
}
