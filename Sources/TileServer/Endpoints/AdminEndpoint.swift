import TileGeometry
import TileHTTP

/// The admin routes (`POST /admin/layers/{layer}/clear-cache`, `POST /admin/reload`), behind the
/// admin token. Blocking (file removals, a configuration read): called on a worker.
struct AdminEndpoint: ServiceEndpoint {
    let core: ServiceCore
    /// The service's reload (`TileService.reload()`).
    let reload: @Sendable () throws(ConfigurationError) -> ReloadSummary

    /// `POST /admin/...`: 404 when no admin token is configured (admin is off), 401 without the
    /// right bearer token, then the operation.
    func adminResponse(_ request: HTTPRequest, _ route: Route) -> HTTPResponse {
        guard let token = state.server.adminToken else { return errorAnswer(.notFound("no such path"), to: request) }
        guard AdminAuthorization.allows(request.headers[.authorization], token: token) else {
            logger.warning("admin request refused: missing or wrong token", metadata: ["path": "\(request.target)"])
            return errorAnswer(.unauthorized, to: request)
        }
        switch route {
        case .clearCache(let name): return clearCache(request, layer: name)
        case .reload: return reloadResponse(request)
        default: return errorAnswer(.notFound("no such path"), to: request)
        }
    }

    /// Drops the layer's cached tiles (all, or those in `?zoom=a-b` / `?bbox=w,s,e,n`); 204.
    /// After it returns no answer carries a tile that was cached before.
    private func clearCache(_ request: HTTPRequest, layer name: String) -> HTTPResponse {
        let state = self.state
        guard let layer = state.layers[name] else { return errorAnswer(.notFound("unknown layer \"\(name)\""), to: request) }
        let scope: CacheClearScope
        switch Result(catching: { () throws(CacheClearScopeError) in try CacheClearScope(query: request.queryItems) }) {
        case .success(let parsed): scope = parsed
        case .failure(let problem): return errorAnswer(.badRequest(problem.message), to: request)
        }
        var matches: (@Sendable (TileKey) -> Bool)?
        if !scope.isEverything { matches = { @Sendable (key: TileKey) -> Bool in scope.contains(key.tile) } }
        let result = core.clear(layer, where: matches, in: state)
        if case .failure(let error) = result {
            return errorAnswer(.internalError("layer \"\(name)\": the cache could not be cleared (\(error)); see the server log"),
                               to: request)
        }
        logger.notice("cache cleared", metadata: ["layer": "\(name)", "query": "\(request.query ?? "")"])
        return HTTPResponse(status: .noContent)
    }

    /// Re-reads the configuration; 200 with what changed, or 422 with why it was refused.
    private func reloadResponse(_ request: HTTPRequest) -> HTTPResponse {
        do {
            let summary = try reload()
            return .text(.ok, "reloaded: \(summary)", headers: [.cacheControl: ServiceError.uncacheable])
        } catch {
            return errorAnswer(.reloadRefused("\(error)"), to: request)
        }
    }
}
