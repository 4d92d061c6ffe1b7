// TileServer: the application. A request becomes a route, the route a layer and a provider call,
// the provider's answer an HTTP response. Testable as a plain function (`handle`), no sockets.

import Dispatch
import Logging
import TileCache
import TileHTTP
import TileProviders

/// The tile service: every route of tilelayer, as an `HTTPResponder`.
public final class TileService: HTTPResponder {
    /// The frozen settings and layers it serves.
    public let state: ServiceState
    let logger: Logger
    let pipeline: TilePipeline

    /// A service over built layers, with a memory cache of `state.server.cacheMemoryBytes`.
    public init(state: ServiceState, logger: Logger) {
        self.state = state
        self.logger = logger
        pipeline = TilePipeline(cache: MemoryCache(capacity: state.server.cacheMemoryBytes), logger: logger)
    }

    /// Memory-cache statistics.
    public var cacheStatistics: CacheStatistics { pipeline.cache.statistics }

    public func respond(
        to request: HTTPRequest, context: HTTPRequestContext,
        completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let (route, early) = classify(request)
        if let early { return early }
        if case .tile(let tile) = route { return tileResponse(request, tile, completion: completion) }
        if case .staticMap(let view) = route { return staticResponse(request, view, completion: completion) }
        return handle(request)
    }

    /// The route of a readable request, or the early answer (bad path, method, preflight).
    private func classify(_ request: HTTPRequest) -> (Route, HTTPResponse?) {
        switch Router.match(request.pathSegments) {
        case .route(let matched):
            switch request.method {
            case .get, .head: return (matched, nil)
            case .options: return (matched, preflight(request))
            default:
                return (matched, errorResponse(.methodNotAllowed, "method \(request.method) not allowed here (allowed: \(Self.readMethods))",
                                               extra: [(.allow, Self.readMethods)]))
            }
        case .badRequest(let reason): return (.index, errorResponse(.badRequest, reason))
        case .notFound(let reason): return (.index, errorResponse(.notFound, reason))
        }
    }

    /// Methods every read-only route answers.
    static let readMethods = "GET, HEAD, OPTIONS"

    /// The answer to `request`, waiting for asynchronous sources (tests and tools; the server
    /// uses `respond`, which never waits).
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let (route, early) = classify(request)
        if let early { return early }
        switch route {
        case .index: return indexPage()
        case .health: return HTTPResponse.text(.ok, "ok", headers: [.cacheControl: "no-store"])
        case .tileJSONIndex: return tileJSONIndex(request)
        case .tileJSON(let name): return tileJSON(request, layer: name)
        case .tile(let tile): return waitForTile(request, tile)
        case .staticMap(let view): return waitFor { staticResponse(request, view, completion: $0) }
        }
    }

    /// CORS preflight (and plain OPTIONS): 204 with what is allowed.
    private func preflight(_ request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [.allow: Self.readMethods]
        if !state.server.cors.isEmpty {
            headers.add(.accessControlAllowOrigin, state.server.cors)
            headers.add(.accessControlAllowMethods, Self.readMethods)
            headers.add(.accessControlAllowHeaders,
                        request.headers[HTTPHeaderName("Access-Control-Request-Headers")] ?? "*")
            headers.add(.accessControlMaxAge, "86400")
        }
        return HTTPResponse(status: .noContent, headers: headers)
    }

    /// A short text error with the CORS header (so browser clients can read it).
    func errorResponse(
        _ status: HTTPStatus, _ message: String, extra: [(HTTPHeaderName, String)] = []
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        addCORS(to: &headers)
        for (name, value) in extra { headers.add(name, value) }
        return .text(status, message, headers: headers)
    }

    func addCORS(to headers: inout HTTPHeaders) {
        if !state.server.cors.isEmpty { headers.add(.accessControlAllowOrigin, state.server.cors) }
    }
}

extension TileService {
    /// Blocks the calling thread until the tile answer is ready (never call on the concurrency pool).
    private func waitForTile(_ request: HTTPRequest, _ route: TileRoute) -> HTTPResponse {
        waitFor { tileResponse(request, route, completion: $0) }
    }

    /// Blocks until `start` answers at once or calls its completion (never call on the concurrency pool).
    private func waitFor(_ start: (@escaping @Sendable (HTTPResponse) -> Void) -> HTTPResponse?) -> HTTPResponse {
        let box = ResponseBox()
        if let now = start({ box.set($0) }) { return now }
        return box.wait()
    }
}

/// One response handed from a completion to a waiting thread.
private final class ResponseBox: @unchecked Sendable {
    // `response` is written once before `ready` is signalled and read only after the wait.
    private var response: HTTPResponse?
    private let ready = DispatchSemaphore(value: 0)

    func set(_ value: HTTPResponse) {
        response = value
        ready.signal()
    }

    func wait() -> HTTPResponse {
        ready.wait()
        return response!
    }
}
