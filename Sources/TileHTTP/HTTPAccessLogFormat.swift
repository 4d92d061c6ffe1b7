/// How access-log lines are written.
public enum HTTPAccessLogFormat: String, Sendable, CaseIterable {
    /// `2026-11-23T11:00:00.123Z info tilelayer.access : peer=… method=GET path=/… status=200
    /// bytes=… micros=… cache=hit` (the fields of swift-log's text lines).
    case text
    /// One JSON object per line, with the fields of the JSON log handler: `time`, `level`,
    /// `logger`, `message` ("request"), then `peer`, `method`, `path`, `status`, `bytes`,
    /// `micros` and `cache`, every value a string.
    case json
}

/// The access log's settings.
public struct HTTPAccessLogSettings: Sendable {
    /// Whether each answered request gets a line.
    public var enabled: Bool
    /// Line format.
    public var format: HTTPAccessLogFormat
    /// Bytes each event loop buffers before it writes (nginx's `access_log … buffer=`).
    public var bufferBytes: Int
    /// Seconds after which buffered lines are written anyway (nginx's `flush=`).
    public var flushInterval: Double
    /// Where lines go (standard error by default).
    public var descriptor: Int32

    /// Default buffer: 64 KiB, as nginx's usual `buffer=64k`.
    public static let defaultBufferBytes = 64 << 10
    /// Default flush interval: 1 s.
    public static let defaultFlushInterval = 1.0

    /// Settings; every value has a default.
    public init(
        enabled: Bool = true, format: HTTPAccessLogFormat = .text, bufferBytes: Int = defaultBufferBytes,
        flushInterval: Double = defaultFlushInterval, descriptor: Int32 = 2
    ) {
        self.enabled = enabled
        self.format = format
        self.bufferBytes = bufferBytes
        self.flushInterval = flushInterval
        self.descriptor = descriptor
    }
}
