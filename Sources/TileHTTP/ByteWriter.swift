// Bytes written into memory the caller sized for them: an access-log line, a response head.

/// Writes bytes into memory the caller sized for them (no bounds or capacity checks per byte,
/// unlike appending to an array). Callers compute the worst case first.
struct ByteWriter {
    let base: UnsafeMutablePointer<UInt8>
    /// Bytes the memory at `base` holds (checked in debug builds only: callers size it first).
    let capacity: Int
    private(set) var count = 0

    init(_ memory: UnsafeMutableBufferPointer<UInt8>) {
        base = memory.baseAddress!
        capacity = memory.count
    }

    mutating func write(_ byte: UInt8) {
        assert(count < capacity, "ByteWriter: more bytes than its memory was sized for")
        base[count] = byte
        count += 1
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        assert(count + bytes.count <= capacity, "ByteWriter: more bytes than its memory was sized for")
        (base + count).initialize(from: start, count: bytes.count)
        count += bytes.count
    }

    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    mutating func write(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `text`'s UTF-8 as is. (Labelled, so a literal goes to the `StaticString` overload.)
    mutating func write(contentsOf text: String) {
        var text = text
        text.withUTF8 { write($0) }
    }

    /// `value` on one line: a control byte (none can come from the parser, which refuses them)
    /// is shown as "?".
    mutating func writeVisible(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            // Visible already (always, from the parser): one copy.
            if bytes.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) { return write(bytes) }
            for byte in bytes { write(byte < 0x20 || byte == 0x7F ? UInt8(ascii: "?") : byte) }
        }
    }

    /// `value` as the inside of a JSON string (RFC 8259 §7).
    mutating func writeEscaped(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                    write(UInt8(ascii: "\\"))
                    write(byte)
                case 0 ..< 0x20:
                    write("\\u00")
                    write(Self.hex(byte >> 4))
                    write(Self.hex(byte & 0xF))
                default:
                    write(byte)
                }
            }
        }
    }

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Decimal digits of `value` (at most 20).
    mutating func writeDigits(_ value: UInt64) {
        var length = 1
        var scale: UInt64 = 10
        while length < 20 && value >= scale {
            length += 1
            scale = scale.multipliedReportingOverflow(by: 10).overflow ? .max : scale * 10
        }
        assert(count + length <= capacity, "ByteWriter: more bytes than its memory was sized for")
        var rest = value
        for index in stride(from: count + length - 1, through: count, by: -1) {
            base[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }
}
