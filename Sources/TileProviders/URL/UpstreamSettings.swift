/// How an upstream HTTP tile server is reached.
public struct UpstreamSettings: Sendable, Equatable {
    /// Seconds to establish a connection.
    public var connectTimeout: Double
    /// Seconds for a whole request, connect to last body byte, once it holds a slot of
    /// `maxConcurrency` (waiting for one takes at most as long again).
    public var totalTimeout: Double
    /// Most requests of the source in flight at once (the rest wait in line).
    public var maxConcurrency: Int
    /// `User-Agent` sent upstream (tile servers' usage policies ask for an identifying one).
    public var userAgent: String
    /// Extra request headers (an API key, a Referer).
    public var headers: [String: String]
    /// Seconds a client is told to wait (`Retry-After`) when the upstream fails.
    public var retryAfter: Int
    /// Largest tile body accepted, bytes.
    public var maxBodyBytes: Int
    /// Whether tiles keep the upstream's `Cache-Control`/`Expires` (`cacheControl: upstream`).
    public var passesCachingThrough = false

    /// Defaults: 5 s connect, 10 s total, 16 concurrent requests.
    public init(
        connectTimeout: Double = 5, totalTimeout: Double = 10, maxConcurrency: Int = 16,
        userAgent: String = "tilelayer", headers: [String: String] = [:], retryAfter: Int = 5,
        maxBodyBytes: Int = 16 << 20
    ) {
        self.connectTimeout = connectTimeout
        self.totalTimeout = totalTimeout
        self.maxConcurrency = maxConcurrency
        self.userAgent = userAgent
        self.headers = headers
        self.retryAfter = retryAfter
        self.maxBodyBytes = maxBodyBytes
    }
}
