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
    private static let textPrefix = Array(" info tilelayer.access : peer=".utf8)
    private static let jsonPrefix = Array(#"{"time":""#.utf8)
    private static let jsonAfterTime = Array(#"","level":"info","logger":"tilelayer.access","message":"request","peer":""#.utf8)

    /// Appends the line for `entry` stamped `time` (RFC 3339, UTC) to `buffer`.
    static func append(_ entry: HTTPAccessLogEntry, time: [UInt8], format: HTTPAccessLogFormat, to buffer: inout [UInt8]) {
        switch format {
        case .text:
            buffer.append(contentsOf: time)
            buffer.append(contentsOf: textPrefix)
            buffer.append(contentsOf: entry.peer.utf8)
            field(" method=", entry.method.rawValue, to: &buffer)
            field(" path=", entry.target, to: &buffer)
            buffer.append(contentsOf: " status=".utf8)
            digits(UInt64(max(0, entry.status)), to: &buffer)
            buffer.append(contentsOf: " bytes=".utf8)
            digits(UInt64(max(0, entry.bytes)), to: &buffer)
            buffer.append(contentsOf: " micros=".utf8)
            digits(entry.micros, to: &buffer)
            if let cache = entry.cache { field(" cache=", cache, to: &buffer) }
        case .json:
            buffer.append(contentsOf: jsonPrefix)
            buffer.append(contentsOf: time)
            buffer.append(contentsOf: jsonAfterTime)
            escaped(entry.peer, to: &buffer)
            buffer.append(contentsOf: #"","method":""#.utf8)
            escaped(entry.method.rawValue, to: &buffer)
            buffer.append(contentsOf: #"","path":""#.utf8)
            escaped(entry.target, to: &buffer)
            buffer.append(contentsOf: #"","status":""#.utf8)
            digits(UInt64(max(0, entry.status)), to: &buffer)
            buffer.append(contentsOf: #"","bytes":""#.utf8)
            digits(UInt64(max(0, entry.bytes)), to: &buffer)
            buffer.append(contentsOf: #"","micros":""#.utf8)
            digits(entry.micros, to: &buffer)
            if let cache = entry.cache {
                buffer.append(contentsOf: #"","cache":""#.utf8)
                escaped(cache, to: &buffer)
            }
            buffer.append(contentsOf: #""}"#.utf8)
        }
        buffer.append(UInt8(ascii: "\n"))
    }

    private static func field(_ name: StaticString, _ value: String, to buffer: inout [UInt8]) {
        buffer.append(contentsOf: UnsafeBufferPointer(start: name.utf8Start, count: name.utf8CodeUnitCount))
        // The text format is one line: a control byte in a value (none can come from the
        // parser, which refuses them) would be shown as "?".
        for byte in value.utf8 { buffer.append(byte < 0x20 || byte == 0x7F ? UInt8(ascii: "?") : byte) }
    }

    /// `value` as the inside of a JSON string (RFC 8259 §7).
    static func escaped(_ value: String, to buffer: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        for byte in value.utf8 {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                buffer.append(UInt8(ascii: "\\"))
                buffer.append(byte)
            case 0 ..< 0x20:
                buffer.append(contentsOf: "\\u00".utf8)
                buffer.append(hex[Int(byte >> 4)])
                buffer.append(hex[Int(byte & 0xF)])
            default:
                buffer.append(byte)
            }
        }
    }

    /// Decimal digits of `value`.
    static func digits(_ value: UInt64, to buffer: inout [UInt8]) {
        if value < 10 {
            buffer.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var rest = value
            var index = 20
            while rest > 0 {
                index -= 1
                scratch[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
            buffer.append(contentsOf: UnsafeBufferPointer(rebasing: scratch[index...]))
        }
    }
}
