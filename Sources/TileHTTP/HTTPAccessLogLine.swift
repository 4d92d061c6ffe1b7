// One access-log line, formatted straight into bytes: no String interpolation, no metadata
// dictionary, no allocation beyond the buffer's own growth.

/// What one line records.
struct HTTPAccessLogEntry {
    var peer: String
    var method: HTTPMethod
    var target: String
    var status: Int
    var bytes: Int
    var micros: UInt64
    var cache: String?
}

enum HTTPAccessLogLine {
    /// Appends the line for `entry` stamped `time` (RFC 3339, UTC) to `buffer`: written into
    /// scratch memory sized for the line's worst case, then appended with one copy (not byte by
    /// byte into the array, which checks uniqueness and capacity per byte).
    static func append(_ entry: HTTPAccessLogEntry, time: [UInt8], format: HTTPAccessLogFormat, to buffer: inout [UInt8]) {
        // Every variable field may grow 6-fold as JSON escapes (\u00XX); constants and numbers fit in 256.
        let variable = entry.peer.utf8.count + entry.method.rawValue.utf8.count + entry.target.utf8.count
            + (entry.cache?.utf8.count ?? 0)
        let worst = time.count + 256 + 6 * variable
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: worst) { scratch in
            var line = LineWriter(base: scratch.baseAddress!)
            switch format {
            case .text: text(entry, time: time, to: &line)
            case .json: json(entry, time: time, to: &line)
            }
            line.write(UInt8(ascii: "\n"))
            assert(line.count <= worst, "access-log line longer than its worst case")
            buffer.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress, count: line.count))
        }
    }

    private static func text(_ entry: HTTPAccessLogEntry, time: [UInt8], to line: inout LineWriter) {
        line.write(time)
        line.write(" info tilelayer.access : peer=")
        line.writeVisible(entry.peer)
        line.write(" method=")
        line.writeVisible(entry.method.rawValue)
        line.write(" path=")
        line.writeVisible(entry.target)
        line.write(" status=")
        line.writeDigits(UInt64(max(0, entry.status)))
        line.write(" bytes=")
        line.writeDigits(UInt64(max(0, entry.bytes)))
        line.write(" micros=")
        line.writeDigits(entry.micros)
        if let cache = entry.cache {
            line.write(" cache=")
            line.writeVisible(cache)
        }
    }

    private static func json(_ entry: HTTPAccessLogEntry, time: [UInt8], to line: inout LineWriter) {
        line.write(#"{"time":""#)
        line.write(time)
        line.write(#"","level":"info","logger":"tilelayer.access","message":"request","peer":""#)
        line.writeEscaped(entry.peer)
        line.write(#"","method":""#)
        line.writeEscaped(entry.method.rawValue)
        line.write(#"","path":""#)
        line.writeEscaped(entry.target)
        line.write(#"","status":""#)
        line.writeDigits(UInt64(max(0, entry.status)))
        line.write(#"","bytes":""#)
        line.writeDigits(UInt64(max(0, entry.bytes)))
        line.write(#"","micros":""#)
        line.writeDigits(entry.micros)
        if let cache = entry.cache {
            line.write(#"","cache":""#)
            line.writeEscaped(cache)
        }
        line.write(#""}"#)
    }

    /// Decimal digits of `value`.
    static func digits(_ value: UInt64, to buffer: inout [UInt8]) {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var line = LineWriter(base: scratch.baseAddress!)
            line.writeDigits(value)
            buffer.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress, count: line.count))
        }
    }
}

/// Writes a line into memory the caller sized for it (no bounds or capacity checks per byte).
private struct LineWriter {
    let base: UnsafeMutablePointer<UInt8>
    private(set) var count = 0

    init(base: UnsafeMutablePointer<UInt8>) {
        self.base = base
    }

    mutating func write(_ byte: UInt8) {
        base[count] = byte
        count += 1
    }

    mutating func write(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let start = bytes.baseAddress, !bytes.isEmpty else { return }
        (base + count).update(from: start, count: bytes.count)
        count += bytes.count
    }

    mutating func write(_ bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { write($0) }
    }

    mutating func write(_ text: StaticString) {
        write(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `value` on one line: a control byte (none can come from the parser, which refuses them)
    /// is shown as "?".
    mutating func writeVisible(_ value: String) {
        var value = value
        value.withUTF8 { bytes in
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
        var rest = value
        for index in stride(from: count + length - 1, through: count, by: -1) {
            base[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        count += length
    }
}
