// One access-log line, formatted straight into bytes: no String interpolation, no metadata
// dictionary, no allocation (the log writes it straight into its buffer).

/// What one line records.
struct HTTPAccessLogEntry {
    /// The peer's address as text, made once per connection.
    var peer: [UInt8]
    var method: HTTPMethod
    var target: String
    var status: Int
    var bytes: Int
    var micros: UInt64
    var cache: String?
}

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
        func word(_ offset: Int, _ count: Int) -> UInt64 {
            (0 ..< count).reduce(0) { $0 | UInt64(second[offset + $1]) << (8 * $1) }
        }
        // Byte 19 is '.', byte 23 'Z'; bytes 20–22 (the milliseconds) are kept.
        let kept = words.2 & 0x00FF_FFFF_0000_0000
        words = (word(0, 8), word(8, 8), word(16, 3) | UInt64(UInt8(ascii: ".")) << 24 | kept
                    | UInt64(UInt8(ascii: "Z")) << 56)
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

enum HTTPAccessLogLine {
    /// Appends the line for `entry` stamped `time` (RFC 3339, UTC) to `buffer`.
    static func append(_ entry: HTTPAccessLogEntry, time: HTTPAccessLogTime, format: HTTPAccessLogFormat,
                       to buffer: inout [UInt8]) {
        let worst = worstCase(entry)
        let line = [UInt8](unsafeUninitializedCapacity: worst) { memory, initialized in
            var line = ByteWriter(memory)
            write(entry, time: time, format: format, to: &line)
            initialized = line.count
        }
        buffer += line
    }

    /// Most bytes the line for `entry` can take: every variable field may grow 6-fold as JSON
    /// escapes (\u00XX); the time, constants and numbers fit in 256.
    static func worstCase(_ entry: HTTPAccessLogEntry) -> Int {
        let variable = entry.peer.count + entry.method.rawValue.utf8.count + entry.target.utf8.count
            + (entry.cache?.utf8.count ?? 0)
        return 256 + 6 * variable
    }

    /// Writes the line for `entry`, newline included, into memory sized by `worstCase`.
    static func write(_ entry: HTTPAccessLogEntry, time: HTTPAccessLogTime, format: HTTPAccessLogFormat,
                      to line: inout ByteWriter) {
        switch format {
        case .text: text(entry, time: time, to: &line)
        case .json: json(entry, time: time, to: &line)
        }
        line.write(UInt8(ascii: "\n"))
    }

    /// "YYYY-MM-DDTHH:MM:SS.mmmZ".
    private static func stamp(_ time: HTTPAccessLogTime, to line: inout ByteWriter) {
        line.write(word: time.words.0)
        line.write(word: time.words.1)
        line.write(word: time.words.2)
    }

    private static func text(_ entry: HTTPAccessLogEntry, time: HTTPAccessLogTime, to line: inout ByteWriter) {
        stamp(time, to: &line)
        line.write(" info tilelayer.access : peer=")
        line.write(entry.peer)  // made by the server from the socket's address
        // A literal: two small strings compare as two words, with no lookup of `HTTPMethod.get`.
        if entry.method.rawValue == "GET" {
            line.write(" method=GET path=")  // most lines: one copy where three were
        } else {
            line.write(" method=")
            line.writeVisible(entry.method.rawValue)
            line.write(" path=")
        }
        line.writeVisible(entry.target)
        if entry.status == 200 {
            line.write(" status=200 bytes=")  // most lines again
        } else {
            line.write(" status=")
            line.writeDigits(UInt64(max(0, entry.status)))
            line.write(" bytes=")
        }
        line.writeDigits(UInt64(max(0, entry.bytes)))
        line.write(" micros=")
        line.writeDigits(entry.micros)
        if let cache = entry.cache {
            line.write(" cache=")
            line.writeVisible(cache)  // the application's free text
        }
    }

    private static func json(_ entry: HTTPAccessLogEntry, time: HTTPAccessLogTime, to line: inout ByteWriter) {
        line.write(#"{"time":""#)
        stamp(time, to: &line)
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
