// TileServer: the application. A request becomes a route, the route a layer and a provider call,
// the provider's answer an HTTP response. Testable as a plain function (`handle`), no sockets.

import Logging
import TileHTTP
import TileProviders

/// The tile service: every route of tilelayer, as an `HTTPResponder`.
public final class TileService: HTTPResponder {
    /// The frozen settings and layers it serves.
    public let state: ServiceState
    let logger: Logger

    /// A service over built layers.
    public init(state: ServiceState, logger: Logger) {
        self.state = state
        self.logger = logger
    }

    public func respond(
        to request: HTTPRequest, context: HTTPRequestContext,
        completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        handle(request)
    }

    /// Methods every read-only route answers.
    static let readMethods = "GET, HEAD, OPTIONS"

    /// The answer to `request`.
    public func handle(_ request: HTTPRequest) -> HTTPResponse {
        let route: Route
        switch Router.match(request.pathSegments) {
        case .route(let matched): route = matched
        case .badRequest(let reason): return errorResponse(.badRequest, reason)
        case .notFound(let reason): return errorResponse(.notFound, reason)
        }
        switch request.method {
        case .get, .head:
            break
        case .options:
            return preflight(request)
        default:
            return errorResponse(.methodNotAllowed, "method \(request.method) not allowed here (allowed: \(Self.readMethods))",
                                 extra: [(.allow, Self.readMethods)])
        }
        switch route {
        case .index: return indexPage()
        case .health: return HTTPResponse.text(.ok, "ok", headers: [.cacheControl: "no-store"])
        case .tileJSONIndex: return tileJSONIndex(request)
        case .tileJSON(let name): return tileJSON(request, layer: name)
        case .tile(let tile): return tileResponse(request, tile)
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
