import Sockets

/// How an `HTTPServer` listens and what it tolerates from clients.
public struct HTTPServerConfiguration: Sendable {
    /// Address to bind ("0.0.0.0", "127.0.0.1", "::").
    public var host: String
    /// Port to bind; 0 picks a free one.
    public var port: Int
    /// Parser size limits.
    public var limits: HTTPParserLimits
    /// Open connections beyond which new clients get 503.
    public var maxConnections: Int
    /// Seconds a client has to send a whole header section once it has started (408 after).
    public var headerTimeout: Double
    /// Seconds an idle keep-alive connection stays open, and a stalled write may wait.
    public var idleTimeout: Double
    /// Seconds the application has to answer a request (503 after).
    public var answerTimeout: Double
    /// Which transport drives connections.
    public var transport: IOTransport
    /// Whether one access-log line is written per request.
    public var accessLog: Bool {
        get { accessLogSettings.enabled }
        set { accessLogSettings.enabled = newValue }
    }
    /// The access log: on or off, format, batching, destination.
    public var accessLogSettings = HTTPAccessLogSettings()
    /// Event-loop threads; nil: one per online core.
    public var eventLoops: Int?
    /// Seconds an answer the responder marked for reuse (`HTTPAnswerReuse`) is given again to
    /// the same request head (`HTTPHeadMemo`) after it was made; 0: never given again. A pinned
    /// one's is `reusedPinnedAnswerLifetime`.
    public var reusedAnswerLifetime = 0.1
    /// Seconds an answer whose mark is pinned (`HTTPAnswerReuse.Mark.isPinned`: its source
    /// changes only with a revoke, or rarely, as a tile in the application's memory cache) is
    /// given again after it was made; 0: never. A revoke ends it at once whatever this is.
    public var reusedPinnedAnswerLifetime = 1.0
    /// Answers that hold a file open of their own (`HTTPFileBody.holdsOpenFile`: a tile file
    /// sent with its descriptor) kept to be given again, at most, across all event
    /// loops, shared out evenly (rounded down: with more loops than this, none is kept).
    public var reusedFileAnswers = 256
    /// Bytes of memory the answers given again most may take, laid out as they go on the wire
    /// (`HTTPWireAnswer`: head and body in one region, sent with one `sendfile`), at most,
    /// across all event loops, shared out evenly; 0: none is laid out.
    public var reusedWireBytes = 64 << 20
    /// What shares the open-file limit with the connections, told of each connection opened
    /// and closed (rejected ones too: they hold a descriptor while their 503 lingers); nil:
    /// nothing.
    public var connectionDescriptors: (any HTTPConnectionDescriptors)?

    /// Default connection limit.
    public static let defaultMaxConnections = 10_000
    /// Default header timeout, seconds.
    public static let defaultHeaderTimeout = 10.0
    /// Default idle timeout, seconds.
    public static let defaultIdleTimeout = 60.0
    /// Default answer timeout, seconds: longer than an upstream's default timeout and retry.
    public static let defaultAnswerTimeout = 30.0

    /// A configuration; every value has a default.
    public init(
        host: String = "0.0.0.0", port: Int = 8080, limits: HTTPParserLimits = HTTPParserLimits(),
        maxConnections: Int = defaultMaxConnections, headerTimeout: Double = defaultHeaderTimeout,
        idleTimeout: Double = defaultIdleTimeout, answerTimeout: Double = defaultAnswerTimeout,
        accessLog: Bool = true, eventLoops: Int? = nil, transport: IOTransport = .platformDefault
    ) {
        self.host = host
        self.port = port
        self.limits = limits
        self.maxConnections = maxConnections
        self.headerTimeout = headerTimeout
        self.idleTimeout = idleTimeout
        self.answerTimeout = answerTimeout
        self.transport = transport
        self.accessLogSettings.enabled = accessLog
        self.eventLoops = eventLoops
    }
}

extension HTTPServerConfiguration {
    /// The timeouts as the connection state machine takes them.
    var timeouts: HTTPConnectionStateMachine.Timeouts {
        .init(headerSeconds: headerTimeout, idleSeconds: idleTimeout, answerSeconds: answerTimeout)
    }
}
