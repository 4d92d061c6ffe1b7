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
            var line = ByteWriter(scratch)
            switch format {
            case .text: text(entry, time: time, to: &line)
            case .json: json(entry, time: time, to: &line)
            }
            line.write(UInt8(ascii: "\n"))
            buffer.append(contentsOf: UnsafeBufferPointer(start: scratch.baseAddress, count: line.count))
        }
    }

    private static func text(_ entry: HTTPAccessLogEntry, time: [UInt8], to line: inout ByteWriter) {
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

    private static func json(_ entry: HTTPAccessLogEntry, time: [UInt8], to line: inout ByteWriter) {
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
}
