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

    /// `word`'s 8 bytes, lowest first: one store.
    mutating func write(word: UInt64) {
        assert(count + 8 <= capacity, "ByteWriter: more bytes than its memory was sized for")
        UnsafeMutableRawPointer(base + count).storeBytes(of: word.littleEndian, as: UInt64.self)
        count += 8
    }

    /// Inlined: a constant's length is known where it is written, so one of the paths below is
    /// all that is left of it there.
    @inline(__always)
    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        let length = bytes.count
        assert(count + length <= capacity, "ByteWriter: more bytes than its memory was sized for")
        let to = UnsafeMutableRawPointer(base + count)
        let from = UnsafeRawPointer(start)
        // Most pieces (a field, a constant) are up to 32 bytes: one to three single bytes, or two
        // half words, two or four words, overlapping where the length is not a multiple of their
        // size, where a call to memcpy costs more.
        if length < 4 {
            // The first, middle and last byte (of 1 to 3, some the same).
            to.storeBytes(of: from.load(as: UInt8.self), as: UInt8.self)
            (to + length / 2).storeBytes(of: (from + length / 2).load(as: UInt8.self), as: UInt8.self)
            (to + length - 1).storeBytes(of: (from + length - 1).load(as: UInt8.self), as: UInt8.self)
        } else if length < 8 {
            to.storeBytes(of: from.loadUnaligned(as: UInt32.self), as: UInt32.self)
            (to + length - 4).storeBytes(of: (from + length - 4).loadUnaligned(as: UInt32.self), as: UInt32.self)
        } else if length <= 16 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + length - 8).storeBytes(of: (from + length - 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
        } else if length <= 32 {
            to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + 8).storeBytes(of: (from + 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + length - 16).storeBytes(of: (from + length - 16).loadUnaligned(as: UInt64.self), as: UInt64.self)
            (to + length - 8).storeBytes(of: (from + length - 8).loadUnaligned(as: UInt64.self), as: UInt64.self)
        } else {
            (base + count).initialize(from: start, count: length)
        }
        count += length
    }

    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    @inline(__always)
    mutating func write(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `text`'s UTF-8 as is, for text the server made itself (a peer's address, a cache note),
    /// which holds no control byte. (Labelled, so a literal goes to the `StaticString` overload.)
    mutating func write(contentsOf text: String) {
        // A native string lends its bytes without a copy of the string.
        if let done: Void = text.utf8.withContiguousStorageIfAvailable({ write($0) }) { return done }
        var text = text
        text.withUTF8 { write($0) }
    }

    /// `value` on one line: a control byte (none can come from the parser, which refuses them)
    /// is shown as "?".
    mutating func writeVisible(_ value: String) {
        // A native string lends its bytes without a copy of the string.
        if let done: Void = value.utf8.withContiguousStorageIfAvailable({ writeVisible($0) }) { return done }
        var value = value
        value.withUTF8 { writeVisible($0) }
    }

    private mutating func writeVisible(_ bytes: UnsafeBufferPointer<UInt8>) {
        // Visible already (always, from the parser): one copy.
        if !Self.hasControlByte(bytes) { return write(bytes) }
        for byte in bytes { write(byte < 0x20 || byte == 0x7F ? UInt8(ascii: "?") : byte) }
    }

    /// Whether `bytes` holds a byte below 0x20 or 0x7F, eight bytes a test (a word "has a byte
    /// less than n" and "has a zero byte" tests; a false yes only sends the caller to its
    /// byte-by-byte path).
    static func hasControlByte(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress else { return false }
        let ones: UInt64 = 0x0101_0101_0101_0101
        let highs: UInt64 = 0x8080_8080_8080_8080
        var index = 0
        while index + 8 <= bytes.count {
            let word = UnsafeRawPointer(start + index).loadUnaligned(as: UInt64.self)
            let deleted = word ^ (ones &* 0x7F)
            if ((word &- ones &* 0x20) & ~word | (deleted &- ones) & ~deleted) & highs != 0 { return true }
            index += 8
        }
        while index < bytes.count {
            if start[index] < 0x20 || start[index] == 0x7F { return true }
            index += 1
        }
        return false
    }

    /// `value` as the inside of a JSON string (RFC 8259 §7).
    mutating func writeEscaped(_ value: String) {
        var value = value
        value.withUTF8 { writeEscaped($0) }
    }

    /// `bytes` (UTF-8) as the inside of a JSON string.
    mutating func writeEscaped(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { writeEscaped($0) }
    }

    private mutating func writeEscaped(_ bytes: UnsafeBufferPointer<UInt8>) {
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

    private static func hex(_ nibble: UInt8) -> UInt8 {
        nibble < 10 ? UInt8(ascii: "0") + nibble : UInt8(ascii: "a") + nibble - 10
    }

    /// Decimal digits of `value` (at most 20), two at a time from a table, written backwards
    /// into place once their number is known (told by comparisons up to 8 digits, the numbers
    /// a log line has: sizes and microseconds).
    mutating func writeDigits(_ value: UInt64) {
        let length: Int
        if value < 10_000 {
            length = value < 100 ? (value < 10 ? 1 : 2) : (value < 1000 ? 3 : 4)
        } else if value < 100_000_000 {
            length = value < 1_000_000 ? (value < 100_000 ? 5 : 6) : (value < 10_000_000 ? 7 : 8)
        } else {
            var counted = 9
            var rest = value / 1_000_000_000
            while rest > 0 {
                counted += 1
                rest /= 10
            }
            length = counted
        }
        assert(count + length <= capacity, "ByteWriter: more bytes than its memory was sized for")
        let pairs = Self.digitPairs.utf8Start
        var index = count + length
        var rest = value
        while rest >= 100 {
            let pair = Int(rest % 100) * 2
            rest /= 100
            index -= 2
            base[index] = pairs[pair]
            base[index + 1] = pairs[pair + 1]
        }
        if rest >= 10 {
            base[index - 2] = pairs[Int(rest) * 2]
            base[index - 1] = pairs[Int(rest) * 2 + 1]
        } else {
            base[index - 1] = UInt8(ascii: "0") + UInt8(rest)
        }
        count += length
    }

    /// "00" to "99", each pair at twice its value.
    private static var digitPairs: StaticString {
        """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """
    }
}
