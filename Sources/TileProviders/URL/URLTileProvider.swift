import AsyncHTTPClient
import CoreMetrics
import Foundation
import Logging
import NIOCore

/// The URL-constructor resolver (the SDK's `GMSURLTileLayer`): a URL per tile, from a template
/// or a closure, fetched from `http(s)://` upstreams or read from `file://` paths.
///
/// Upstream 200 → the tile (must be in the layer's format, else 502); 404/204 → no tile; 5xx, 429, a timeout
/// (`timeoutSeconds` for head and body together), a refused or reset connection → not available now; TLS, an oversize body, a bad URL →
/// `TileProviderError.upstream` (502). A nil URL is "no tile".
///
/// `@unchecked Sendable`: every stored property is immutable; `HTTPClient` is thread-safe.
public final class URLTileProvider: AsyncTileProvider, @unchecked Sendable {
    private let resolve: @Sendable (TileRequest) -> String?
    private let settings: UpstreamSettings
    private let client: HTTPClient
    private let logger: Logger
    private let metrics: UpstreamMetrics
    /// The source's `maxConcurrency` requests in flight.
    private let slots: UpstreamSlots

    /// A provider over a parsed template, counting upstream requests and failures in `metrics`.
    public convenience init(
        template: URLTemplate, settings: UpstreamSettings = UpstreamSettings(), logger: Logger,
        metrics: UpstreamMetrics = UpstreamMetrics()
    ) {
        self.init(settings: settings, logger: logger, metrics: metrics) { template.url(for: $0) }
    }

    /// A provider over a URL constructor, exactly like `GMSURLTileLayer(urlConstructor:)`:
    /// return the tile's URL, or nil for "no tile here".
    public convenience init(
        urlConstructor: @escaping @Sendable (_ x: Int, _ y: Int, _ zoom: Int) -> URL?,
        settings: UpstreamSettings = UpstreamSettings(), logger: Logger, metrics: UpstreamMetrics = UpstreamMetrics()
    ) {
        self.init(settings: settings, logger: logger, metrics: metrics) { request in
            urlConstructor(request.tile.x, request.tile.y, request.tile.z)?.absoluteString
        }
    }

    private init(
        settings: UpstreamSettings, logger: Logger, metrics: UpstreamMetrics,
        resolve: @escaping @Sendable (TileRequest) -> String?
    ) {
        self.resolve = resolve
        self.settings = settings
        self.logger = logger
        self.metrics = metrics
        slots = UpstreamSlots(limit: settings.maxConcurrency)
        var configuration = HTTPClient.Configuration(
            timeout: .init(connect: .milliseconds(Int64(settings.connectTimeout * 1000))),
            connectionPool: .init(idleTimeout: .seconds(60),
                                  concurrentHTTP1ConnectionsPerHostSoftLimit: settings.maxConcurrency))
        configuration.decompression = .enabled(limit: .ratio(20))
        configuration.redirectConfiguration = .follow(max: 3, allowCycles: false)
        client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup, configuration: configuration)
    }

    deinit {
        client.shutdown { _ in }
    }

    public func requestTile(_ request: TileRequest) async throws(TileProviderError) -> TileResult {
        guard let url = resolve(request) else { return .noTile }
        if url.hasPrefix("file://") {
            let path = String(url.dropFirst("file://".count))
            guard let file = try FileReader.open(path) else { return .noTile }
            let (bytes, identity) = try file.readVersion()
            return .tile(Tile(data: bytes, lastModified: identity.modifiedSeconds))
        }
        return try await fetch(url)
    }

    private func fetch(_ url: String) async throws(TileProviderError) -> TileResult {
        // One slot of the source's `maxConcurrency`, waited for at most twice `timeoutSeconds` (a
        // fetch holding one gives it back, on the client's event loop, within `timeoutSeconds`
        // of making its request, which a busy executor may delay); then one deadline for the
        // request's head and body together.
        guard await slots.acquire(patience: 2 * settings.totalTimeout) else {
            // A task cancelled while it waited (its answer went elsewhere) is no upstream failure.
            if !Task.isCancelled {
                metrics.failed(.timeout)
                logger.warning("upstream busy: no request slot in time", metadata: ["url": "\(url)"])
            }
            return .unavailable(retryAfter: settings.retryAfter)
        }
        let headers = [("User-Agent", settings.userAgent)] + settings.headers.map { ($0.key, $0.value) }
        let response: UpstreamAnswer
        metrics.requestSent()
        do {
            response = try await client.answer(url: url, headers: headers, within: settings.totalTimeout,
                                               maxBodyBytes: settings.maxBodyBytes, finished: { [slots] in slots.release() })
        } catch {
            let kind = UpstreamFailureKind(error: error)
            metrics.failed(kind)
            // A timeout or a lost connection may mend: not available now. TLS, a body over the
            // limit or a bad URL will not: a bad gateway.
            guard kind == .timeout || kind == .connect else { throw .upstream(url: url, reason: "\(error)") }
            logger.warning("upstream failed", metadata: ["url": "\(url)", "error": "\(error)"])
            return .unavailable(retryAfter: settings.retryAfter)
        }
        if let failure = UpstreamFailureKind(status: response.status) { metrics.failed(failure) }
        switch response.status {
        case 200:
            // The upstream's Last-Modified is not passed on: our ETag (a content hash) validates.
            let caching = settings.passesCachingThrough
                ? UpstreamCaching(cacheControl: response.cacheControl, expires: response.expires) : nil
            return .tile(Tile(data: response.body, upstreamCaching: caching))
        case 204, 404, 410:
            return .noTile
        default:
            logger.warning("upstream answered \(response.status)", metadata: ["url": "\(url)"])
            let retry = response.retryAfter.flatMap { Int($0) } ?? settings.retryAfter
            return .unavailable(retryAfter: max(1, retry))
        }
    }
}
