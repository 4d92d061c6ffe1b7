import TileGeometry
import TileHTTP

extension TileService {
    /// `POST /admin/...`: 404 when no admin token is configured (admin is off), 401 without the
    /// right bearer token, then the operation.
    func adminResponse(_ request: HTTPRequest, _ route: Route) -> HTTPResponse {
        guard let token = state.server.adminToken else { return errorResponse(.notFound, "no such path") }
        guard AdminAuthorization.allows(request.headers[.authorization], token: token) else {
            logger.warning("admin request refused: missing or wrong token", metadata: ["path": "\(request.target)"])
            return errorResponse(.unauthorized, "missing or wrong admin token (Authorization: Bearer <token>)",
                                 extra: [(HTTPHeaderName("WWW-Authenticate"), "Bearer realm=\"tilelayer admin\"")])
        }
        switch route {
        case .clearCache(let name): return clearCache(request, layer: name)
        case .reload: return reloadResponse()
        default: return errorResponse(.notFound, "no such path")
        }
    }

    /// Drops the layer's cached tiles (all, or those in `?zoom=a-b` / `?bbox=w,s,e,n`); 204.
    /// After it returns no answer carries a tile that was cached before.
    private func clearCache(_ request: HTTPRequest, layer name: String) -> HTTPResponse {
        guard let layer = state.layers[name] else { return errorResponse(.notFound, "unknown layer \"\(name)\"") }
        let scope: CacheClearScope
        switch Result(catching: { () throws(CacheClearScopeError) in try CacheClearScope(query: request.queryItems) }) {
        case .success(let parsed): scope = parsed
        case .failure(let problem): return errorResponse(.badRequest, problem.message)
        }
        let result = scope.isEverything ? pipeline.clear(layer: layer)
            : pipeline.clear(layer: layer, where: { @Sendable (key: TileKey) -> Bool in scope.contains(key.tile) })
        if case .failure(let error) = result {
            return errorResponse(.internalServerError, "layer \"\(name)\": the disk cache could not be cleared (\(error)); see the server log")
        }
        logger.notice("cache cleared", metadata: ["layer": "\(name)", "query": "\(request.query ?? "")"])
        return HTTPResponse(status: .noContent)
    }

    /// Re-reads the configuration; 200 with what changed, or 422 with why it was refused.
    private func reloadResponse() -> HTTPResponse {
        do {
            let summary = try reload()
            return .text(.ok, "reloaded: \(summary)")
        } catch {
            logger.error("reload refused; the old configuration stays", metadata: ["error": "\(error)"])
            return .text(HTTPStatus(code: 422, reason: "Unprocessable Content"),
                         "reload refused, the old configuration stays: \(error)")
        }
    }
}
