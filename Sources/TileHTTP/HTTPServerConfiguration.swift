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
        accessLog: Bool = true, transport: IOTransport = .platformDefault
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
    }
}

extension HTTPServerConfiguration {
    /// The timeouts as the connection state machine takes them.
    var timeouts: HTTPConnectionStateMachine.Timeouts {
        .init(headerSeconds: headerTimeout, idleSeconds: idleTimeout, answerSeconds: answerTimeout)
    }
}
