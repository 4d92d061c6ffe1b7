import Sockets
import TileHTTP
import TileImagery

/// The `server:` section of the configuration.
public struct ServerSettings: Sendable, Equatable {
    /// Address to bind.
    public var host = "0.0.0.0"
    /// Port to bind.
    public var port = 8080
    /// Base of absolute URLs in TileJSON ("https://tiles.example.org"), or nil.
    public var publicURL: String?
    /// Host header values trusted to form TileJSON URLs when `publicURL` is not set.
    public var allowedHosts = ServerSettings.defaultAllowedHosts
    /// `Access-Control-Allow-Origin` value; empty turns CORS off.
    public var cors = "*"
    /// Origins allowed when `server.cors` is a list: a request whose `Origin` is listed is
    /// answered with that origin (and `Vary: Origin`); `cors` is then empty.
    public var corsOrigins: [String] = []
    /// Bearer token of the admin endpoints; nil turns them off.
    public var adminToken: String?
    /// Bytes of tiles kept in memory.
    public var cacheMemoryBytes = 256 << 20
    /// The shared Redis tier (`cache.redis`), if any.
    public var redis: RedisCacheSettings?
    /// Bytes of GDAL's block cache, shared by the imagery layers (`cache.gdalBytes`).
    public var gdalCacheBytes = ImageryEnvironment.defaultCacheBytes
    /// Where `s3://` sources are read (`s3: {endpoint, region, pathStyle}`); nil fields take the AWS variables.
    public var objectStore = ObjectStoreSettings()
    /// Connection limit.
    public var maxConnections = 10_000
    /// Request-line limit, bytes.
    public var requestLineBytes = 8192
    /// Header-section limit, bytes.
    public var headerBytes = 32768
    /// Header-field count limit.
    public var headerFields = HTTPParserLimits.defaultHeaderFields
    /// Request-body limit, bytes (only admin routes take a body).
    public var bodyBytes = HTTPParserLimits.defaultBodyBytes
    /// Header timeout, seconds.
    public var headerSeconds = 10.0
    /// Idle keep-alive timeout, seconds.
    public var idleSeconds = 60.0
    /// Seconds a request may wait for its answer (503 after).
    public var answerSeconds = HTTPServerConfiguration.defaultAnswerTimeout
    /// The transport that drives connections: epoll (the Linux default) or dispatch.
    public var transport = IOTransport.platformDefault
    /// Threads of the pool that runs whatever may block (file and database reads, disk tiers,
    /// renders' inputs, admin work), off the event loops.
    public var workerThreads = WorkerPool.defaultThreads
    /// Jobs that may wait for a pool thread; beyond it a request gets 503 at once.
    public var workerQueue = WorkerPool.defaultQueueLimit
    /// Seconds new cold work (a tile or view that is not in memory) may expect to wait for the
    /// workers or the render threads; beyond it the request is shed: 503 with `Retry-After` at
    /// once (`LoadShedding`). 0 turns shedding off.
    public var workerMaxWait = LoadShedding.defaultMaxWait
    /// Log level: trace, debug, info, notice, warning, error, critical.
    public var logLevel = "info"
    /// Log line format: text or json.
    public var logFormat = LogFormat.text
    /// Whether each request gets an access-log line.
    public var accessLog = true
    /// Bytes of access-log lines each event loop buffers before writing them.
    public var accessBufferBytes = HTTPAccessLogSettings.defaultBufferBytes
    /// Seconds after which buffered access-log lines are written anyway.
    public var accessFlushSeconds = HTTPAccessLogSettings.defaultFlushInterval

    /// Host values trusted by default: the loopback names a local user types.
    public static let defaultAllowedHosts = ["localhost", "127.0.0.1", "[::1]"]

    /// The defaults.
    public init() {}
}
