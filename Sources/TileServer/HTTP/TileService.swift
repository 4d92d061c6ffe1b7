// TileServer: the application. A request becomes a route, the route a layer and a provider call,
// the provider's answer an HTTP response. Testable as a function (`response(to:)`), no sockets.

import CoreMetrics
import Dispatch
import Logging
import Synchronization
import Prometheus
import TileCache
import TileHTTP
import TileProviders

/// The tile service: every route of tilelayer, as an `HTTPResponder`. It classifies a request
/// (route, method, body) and hands it to the part that answers such routes: tiles, views, pages,
/// OGC services, admin. They share one `ServiceCore`: the state served now, the pipeline, the
/// workers and the error answers.
public final class TileService: HTTPResponder {
    let core: ServiceCore
    let tiles: TileEndpoint
    let views: ViewEndpoint
    let pages: PageEndpoint
    let ogc: OGCEndpoint
    /// Where `/admin/reload` and SIGHUP read the configuration from (nil: reload is off).
    let configurationSource: ConfigurationSource?
    /// Makes the service's counters (kept for layers a reload adds).
    let metricsFactory: any MetricsFactory
    /// Runs reloads one at a time.
    let reloads = DispatchQueue(label: "tilelayer.reload")

    /// The frozen settings and layers it serves now; a reload swaps in a new one.
    public var state: ServiceState { core.state }
    var logger: Logger { core.logger }
    var pipeline: TilePipeline { core.pipeline }
    var workers: WorkerPool { core.workers }
    /// What `/metrics` shows: the injected registry, or one of the service's own.
    public var metricsRegistry: PrometheusCollectorRegistry { pages.metricsRegistry }
    /// The HTTP server's request series, which `/metrics` shows too: give it to the
    /// `HTTPServer` that answers with this service.
    public var httpMetrics: HTTPServerMetrics { pages.httpMetrics }

    /// A service over built layers, with a memory cache of `state.server.cacheMemoryBytes`.
    /// Its counters go to `metrics`, which `/metrics` renders (without one, a registry of its own);
    /// the front page uses Debian's Leaflet (or `TILELAYER_LEAFLET_DIR`) when it is installed.
    public convenience init(
        state: ServiceState, logger: Logger, metrics: PrometheusCollectorRegistry? = nil,
        configurationSource: ConfigurationSource? = nil
    ) {
        self.init(state: state, logger: logger, metrics: metrics, webAssets: WebAssets.installed(),
                  configurationSource: configurationSource)
    }

    /// A service with the front page's files from `webAssets` (tests point it at a folder).
    init(
        state: ServiceState, logger: Logger, metrics: PrometheusCollectorRegistry? = nil, webAssets: WebAssets,
        configurationSource: ConfigurationSource? = nil
    ) {
        self.configurationSource = configurationSource
        let registry = metrics ?? PrometheusCollectorRegistry()
        let factory = TileMetrics.makeFactory(registry: registry)
        metricsFactory = factory
        let workers = WorkerPool(threads: state.server.workerThreads, queueLimit: state.server.workerQueue)
        let budget = MemoryBudget(memoryBytes: state.server.cacheMemoryBytes)
        let pipeline = TilePipeline(
            cache: MemoryCache(capacity: budget.tiles, shardHash: TileKey.shardHash),
            decodedTiles: MemoryCache(capacity: budget.decodedTiles), logger: logger,
            metrics: PipelineMetrics(layers: state.layers.layers.map(\.name), factory: factory), workers: workers,
            redis: state.server.redis.map { RedisTileTier(settings: $0, metrics: RedisMetrics(factory: factory), logger: logger) })
        core = ServiceCore(state: state, logger: logger, pipeline: pipeline, workers: workers)
        tiles = TileEndpoint(core: core)
        views = ViewEndpoint(core: core)
        ogc = OGCEndpoint(core: core)
        pages = PageEndpoint(core: core, webAssets: webAssets, metricsRegistry: registry,
                             httpMetrics: TileMetrics.httpServerMetrics(factory: factory),
                             cacheGauges: CacheGauges(registry: registry), descriptorGauges: DescriptorGauges(registry: registry),
                             draining: Draining())
    }

    /// Memory-cache statistics.
    public var cacheStatistics: CacheStatistics { pipeline.cache.statistics }

    /// Answers on the calling event loop what needs no wait (pages, JSON, metrics, tiles in
    /// memory or in a file the kernel's caches hold); hands everything else to the workers (or a
    /// fill under way), whose answer comes through `completion`. A full worker queue is a 503 at once.
    public func respond(
        to request: HTTPRequest,
        completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let (route, early) = classify(request)
        if let early { return early.labelled(route) }
        switch route {
        case .tile(let tile):
            // Tile answers label themselves (`noted`): `completion` is passed on as it is.
            return tiles.answer(request, tile, completion: completion)?.labelled(route)
        case .wmts, .ogcAPI:
            switch ogc.resolution(request, route) {
            case .answer(let response): return response.labelled(route)
            case .tile(let tileRequest, let tile): return tiles.answer(tileRequest, tile, completion: completion)?.labelled(route)
            }
        case .index, .asset, .health, .tileJSONIndex, .tileJSON, .metrics, .camera:
            // Memory and arithmetic only (the camera API computes; it reads no tile).
            return answer(request, route, completion: { _ in })?.labelled(route)
        case .staticMap, .clearCache, .reload, .readiness:
            // Views read tiles, admin work and readiness touch files: on the workers. A view is
            // cold work, shed while the workers are far behind (`LoadShedding`).
            var whenAnswered: (@Sendable () -> Void)?
            if case .staticMap(let view) = route {
                let shedding = core.shedding
                if let shed = shedding.refusal(layer: view.layer, maxWait: state.server.workerMaxWait, workers: workers,
                                               renders: .shared) {
                    pipeline.metrics[view.layer]?.shed.increment()
                    var refusal = errorAnswer(.unavailable("the server is busy; retry later", retryAfter: shed.retryAfter), to: request)
                    refusal.restSeconds = LoadShedding.restSeconds
                    return refusal.labelled(route)
                }
                shedding.admitted(layer: view.layer)
                whenAnswered = { shedding.answered(layer: view.layer) }
            }
            let answerOnce = DeferredAnswer({ completion($0.labelled(route)) }, whenAnswered: whenAnswered)
            let queued = workers.submit { [self] in
                if let now = answer(request, route, completion: answerOnce.handler) { answerOnce.deliver(now) }
            }
            guard queued else {
                whenAnswered?()
                return errorAnswer(.unavailable("the server is busy; retry later", retryAfter: 1), to: request).labelled(route)
            }
            return nil
        }
    }

    /// The route of a readable request, or the early answer (bad path, method, preflight).
    func classify(_ request: HTTPRequest) -> (Route, HTTPResponse?) {
        let match = Router.match(request)
        switch match {
        case .route(let matched) where matched.isAdmin:
            guard request.method == .post else {
                return (matched, errorAnswer(.methodNotAllowed(method: "\(request.method)", allow: "POST"), to: request))
            }
            return (matched, nil)
        case .route(let matched):
            // RFC 9110 §15.5.6: the method is judged first (405 with `Allow`); then a body, which
            // only admin routes may carry, is refused (413).
            switch request.method {
            case .get, .head, .options:
                guard request.announcedBodyLength == 0 else { return (matched, errorAnswer(.bodyNotTaken, to: request)) }
                return (matched, request.method == .options ? preflight(request) : nil)
            default:
                return (matched, errorAnswer(.methodNotAllowed(method: "\(request.method)", allow: Self.readMethods), to: request))
            }
        case .badRequest(let reason): return (.index, errorAnswer(.badRequest(reason), to: request).labelled(MetricsRoute.other))
        case .notFound(let reason): return (.index, errorAnswer(.notFound(reason), to: request).labelled(MetricsRoute.other))
        }
    }

    /// Methods every read-only route answers.
    static let readMethods = "GET, HEAD, OPTIONS"

    /// The answer to a classified request: at once, or nil and `completion` later (tiles and
    /// views go through the pipeline).
    private func answer(
        _ request: HTTPRequest, _ route: Route, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        switch route {
        case .index: return pages.indexPage(request)
        case .asset(let path): return pages.webAsset(request, path: path)
        case .health: return HTTPResponse.text(.ok, "ok", headers: [.cacheControl: "no-store"])
        case .readiness: return pages.readinessAnswer()
        case .tileJSONIndex: return pages.tileJSONIndex(request)
        case .tileJSON(let name): return pages.tileJSON(request, layer: name)
        case .tile(let tile): return tiles.answer(request, tile, completion: completion)
        case .staticMap(let view): return views.staticResponse(request, view, completion: completion)
        case .camera(let view): return views.cameraResponse(request, view)
        case .wmts, .ogcAPI:
            switch ogc.resolution(request, route) {
            case .answer(let response): return response
            case .tile(let tileRequest, let tile): return tiles.answer(tileRequest, tile, completion: completion)
            }
        case .metrics: return pages.metricsPage()
        case .clearCache, .reload:
            return AdminEndpoint(core: core, reload: { [self] () throws(ConfigurationError) in try reload() })
                .adminResponse(request, route)
        }
    }

    /// CORS preflight (and plain OPTIONS): 204 with what is allowed.
    private func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [.allow: Self.readMethods]
        let cors = state.cors
        if let origin = cors.allowedOrigin(for: request) {
            headers.add(.accessControlAllowOrigin, origin)
            headers.add(.accessControlAllowMethods, Self.readMethods)
            headers.add(.accessControlAllowHeaders,
                        request.headers[HTTPHeaderName("Access-Control-Request-Headers")] ?? "*")
            headers.add(.accessControlMaxAge, "86400")
        }
        if cors.variesByOrigin { headers.add(.vary, "Origin") }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    /// Marks the service as draining (a shutdown began): `/readyz` answers 503 from now on.
    public func beginDraining() { pages.draining.begin() }

    func errorAnswer(_ error: ServiceError, to request: HTTPRequest) -> HTTPResponse {
        core.errorAnswer(error, to: request)
    }
}

extension TileService {
    /// The answer to `request`, awaited (tests and tools; the server uses `respond`). A body the
    /// server would send from a file is read into `body`.
    public func response(to request: HTTPRequest) async -> HTTPResponse {
        var response = await withCheckedContinuation { continuation in
            if let now = respond(to: request, completion: { continuation.resume(returning: $0) }) {
                continuation.resume(returning: now)
            }
        }
        // Tile files (`TileEndpoint.fileTileAnswer`) and the memory cache's bodies (`BodyArena`).
        if let file = response.file, let bytes = file.read() { response.body = bytes }
        return response
    }
}
