import Dispatch
import Logging
import Prometheus
import Sockets
import TileHTTP

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Builds the service from a configuration, runs the HTTP server, and handles signals.
///
/// `@unchecked Sendable`: `signalSources` and `memoryUpkeep` are written once, on the thread
/// that starts the server, before any signal can arrive; everything else is immutable.
public final class ServerRunner: @unchecked Sendable {
    /// The HTTP server.
    public let server: HTTPServer
    /// The tile service it answers with.
    public let service: TileService
    private let logger: Logger
    private var signalSources: [DispatchSourceSignal] = []
    /// Where SIGTERM and SIGINT are handled (one at a time, so a second signal sees the first's shutdown).
    private let signalQueue = DispatchQueue(label: "tilelayer.signals")
    /// Returns free heap pages to the system while the server runs (see `MemoryUpkeep`).
    private var memoryUpkeep: DispatchSourceTimer?

    /// Seconds in-flight requests get to finish on SIGTERM/SIGINT.
    public static let shutdownGracePeriod = 10.0

    /// Builds every layer; a source that cannot work is a `ConfigurationError`. Every metric
    /// (HTTP, cache, sources) goes to `metrics`, which `/metrics` renders; without one, to a
    /// registry of the service's own.
    /// `configurationSource` re-reads the configuration for SIGHUP and `/admin/reload`.
    public init(
        configuration: Configuration, logger: Logger, metrics: PrometheusCollectorRegistry? = nil,
        configurationSource: ConfigurationSource? = nil
    ) throws(ConfigurationError) {
        let registry = metrics ?? PrometheusCollectorRegistry()
        let factory = TileMetrics.makeFactory(registry: registry)
        let state = try ServiceState(configuration: configuration, logger: logger, metrics: factory)
        let settings = configuration.server
        service = TileService(state: state, logger: logger, metrics: registry, configurationSource: configurationSource)
        var http = HTTPServerConfiguration(
            host: settings.host, port: settings.port,
            limits: HTTPParserLimits(maxRequestLineBytes: settings.requestLineBytes, maxHeaderBytes: settings.headerBytes,
                                     maxBodyBytes: settings.bodyBytes, maxHeaderFields: settings.headerFields),
            maxConnections: settings.maxConnections, headerTimeout: settings.headerSeconds,
            idleTimeout: settings.idleSeconds, answerTimeout: settings.answerSeconds, accessLog: settings.accessLog,
            transport: settings.transport)
        http.accessLogSettings.format = settings.logFormat == .json ? .json : .text
        http.accessLogSettings.bufferBytes = settings.accessBufferBytes
        http.accessLogSettings.flushInterval = settings.accessFlushSeconds
        server = HTTPServer(configuration: http, responder: service, logger: logger, metrics: service.httpMetrics)
        self.logger = logger
    }

    /// Binds and starts serving; returns the port.
    @discardableResult
    public func start() throws(SocketError) -> Int {
        let port = try server.start()
        if memoryUpkeep == nil { memoryUpkeep = MemoryUpkeep.start(cores: System.coreCount) }
        return port
    }

    /// On SIGTERM or SIGINT: stop accepting, finish requests in flight, then call `exit` (0)
    /// once every event loop has stopped; a second SIGTERM or SIGINT exits at once (128 +
    /// the signal, as a shell reports a process a signal ended).
    /// On SIGHUP: reload the configuration (a bad one is refused, logged, and the old one stays).
    public func installSignalHandlers(exit: @escaping @Sendable (Int32) -> Void) {
        signal(SIGHUP, SIG_IGN)
        let hangup = DispatchSource.makeSignalSource(signal: SIGHUP, queue: .global())
        hangup.setEventHandler { [service, logger] in
            logger.notice("SIGHUP: reloading the configuration")
            do {
                _ = try service.reload()
            } catch {
                logger.error("reload refused; the old configuration stays", metadata: ["error": "\(error)"])
            }
        }
        hangup.resume()
        signalSources.append(hangup)
        for signalNumber in [SIGTERM, SIGINT] {
            signal(signalNumber, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: signalNumber, queue: signalQueue)
            source.setEventHandler { [self] in
                if server.isShuttingDown {
                    logger.notice("second signal: exiting now", metadata: ["signal": "\(signalNumber)"])
                    exit(128 + signalNumber)
                    return
                }
                logger.notice("shutting down: finishing requests in flight", metadata: ["signal": "\(signalNumber)"])
                service.beginDraining()
                server.shutdown(gracePeriod: Self.shutdownGracePeriod) { [logger] in
                    logger.notice("stopped")
                    exit(0)
                }
            }
            source.resume()
            signalSources.append(source)
        }
    }
}
