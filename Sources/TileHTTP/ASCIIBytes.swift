#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Byte-level helpers for the ASCII of HTTP heads, shared by the parser, the memos and the
/// header fields.
extension UInt8 {
    /// A-Z made a-z; every other byte as it is.
    var asciiLowercased: UInt8 { self >= UInt8(ascii: "A") && self <= UInt8(ascii: "Z") ? self | 0x20 : self }
    /// Whether the byte is a space or a tab (optional whitespace, RFC 9110 §5.6.3).
    var isSpaceOrTab: Bool { self == UInt8(ascii: " ") || self == UInt8(ascii: "\t") }
}

extension UnsafeRawBufferPointer {
    /// The index of the first LF at or after `start` (`memchr`: read a word or more at a time,
    /// not byte by byte), nil when there is none.
    func firstLineFeed(from start: Int = 0) -> Int? {
        guard start < count, let base = baseAddress,
              let found = memchr(base + start, Int32(UInt8(ascii: "\n")), count - start) else { return nil }
        return base.distance(to: UnsafeRawPointer(found))
    }
}
