import Logging
import TileServer

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A swift-log handler writing one JSON object per line (`server.log.format: json`):
/// `time` (RFC 3339, UTC, milliseconds), `level`, `logger`, `message`, then the metadata
/// (merged: handler, provider, call site), each line in one `write` so lines never interleave.
struct JSONLogHandler: LogHandler {
    let label: String
    var logLevel: Logger.Level = .info
    var metadata: Logger.Metadata = [:]
    var metadataProvider: Logger.MetadataProvider?
    private let descriptor: Int32

    /// Keys of the line itself; metadata with one of these names is written as `meta.NAME`.
    static let reservedKeys: Set<String> = ["time", "level", "logger", "message"]

    /// A handler writing to `descriptor` (standard error by default).
    init(label: String, descriptor: Int32 = STDERR_FILENO, metadataProvider: Logger.MetadataProvider? = nil) {
        self.label = label
        self.descriptor = descriptor
        self.metadataProvider = metadataProvider
    }

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        var merged = metadata
        if let provided = metadataProvider?.get() { merged.merge(provided) { _, new in new } }
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let line = Self.line(time: Self.now(), level: event.level, label: label, message: "\(event.message)",
                             metadata: merged)
        let bytes = Array(line.utf8)
        _ = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    }

    /// One JSON line, newline included; metadata keys in sorted order.
    static func line(time: String, level: Logger.Level, label: String, message: String, metadata: Logger.Metadata) -> String {
        var members: [(String, JSONValue)] = [
            ("time", .string(time)), ("level", .string(level.rawValue)), ("logger", .string(label)), ("message", .string(message)),
        ]
        for key in metadata.keys.sorted() {
            members.append((reservedKeys.contains(key) ? "meta.\(key)" : key, json(metadata[key]!)))
        }
        return JSONValue.object(members).serialized + "\n"
    }

    private static func json(_ value: Logger.Metadata.Value) -> JSONValue {
        switch value {
        case .string(let text): return .string(text)
        case .stringConvertible(let thing): return .string(thing.description)
        case .array(let items): return .array(items.map(json))
        case .dictionary(let entries): return .object(entries.keys.sorted().map { ($0, json(entries[$0]!)) })
        }
    }

    /// Now as RFC 3339 in UTC with milliseconds: `2025-01-31T12:34:56.789Z`.
    static func now() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return timestamp(seconds: spec.tv_sec, milliseconds: Int(spec.tv_nsec / 1_000_000))
    }

    /// `seconds` since 1970 and `milliseconds` as RFC 3339 in UTC.
    static func timestamp(seconds: time_t, milliseconds: Int) -> String {
        var time = seconds
        var parts = tm()
        gmtime_r(&time, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(Int32(milliseconds), 3))Z"
    }
}
