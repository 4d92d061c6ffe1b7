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

enum HTTPAccessLogLine {
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
            line.write(" method=GET path=")  // most lines: one copy, not three
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
