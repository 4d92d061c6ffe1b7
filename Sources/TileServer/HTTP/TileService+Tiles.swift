import TileHTTP
import TileProviders

extension TileService {
    /// The answer to a tile request: at once on a cache hit or a synchronous source, else nil
    /// and `completion` later. It may block (files, databases): it runs on the workers.
    func tileResponse(
        _ request: HTTPRequest, _ route: TileRoute, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let (layer, key): (Layer, TileKey)
        switch tileLookup(request, route) {
        case .answered(let response): return response
        case .key(let found, let made): (layer, key) = (found, made)
        }
        if let sent = fileTileResponse(request, key: key, layer: layer, mayBlock: true) { return sent }
        let now = pipeline.outcome(for: key, layer: layer) { [self] result, cacheUse in
            completion(answer(request, result, layer: layer, scale: route.scale, cacheUse: cacheUse))
        }
        return now.map { answer(request, $0.result, layer: layer, scale: route.scale, cacheUse: $0.cache) }
    }

    /// The answer to a tile request when it needs no wait — a bad request, a memory hit, a file
    /// kept open — for the event loop; nil when the workers must answer.
    func tileResponseWithoutWaiting(_ request: HTTPRequest, _ route: TileRoute) -> HTTPResponse? {
        switch tileLookup(request, route) {
        case .answered(let response):
            return response
        case .key(let layer, let key):
            if let sent = fileTileResponse(request, key: key, layer: layer, mayBlock: false) { return sent }
            guard let hit = pipeline.memoryHit(for: key, layer: layer) else { return nil }
            return answer(request, .success(hit), layer: layer, scale: key.scale, cacheUse: .hit)
        }
    }

    /// A tile request's layer and cache key, or the answer that ends it (unknown layer, zoom
    /// out of range, bad variables).
    enum TileLookup {
        case key(Layer, TileKey)
        case answered(HTTPResponse)
    }

    private func tileLookup(_ request: HTTPRequest, _ route: TileRoute) -> TileLookup {
        let state = self.state
        guard let layer = route.layer.map({ state.layers[$0] }) ?? state.layers.defaultLayer else {
            return .answered(route.layer.map { errorResponse(.notFound, "unknown layer \"\($0)\"") }
                ?? errorResponse(.notFound, "no default layer is configured; use /{layer}/{z}/{x}/{y}.png"))
        }
        guard let tile = layer.tileCoordinate(z: route.z, x: route.x, y: route.y) else {
            if route.z < layer.minZoom || route.z > layer.maxZoom {
                return .answered(errorResponse(
                    .notFound, "zoom \(route.z) is outside layer \"\(layer.name)\"'s range \(layer.minZoom)-\(layer.maxZoom)"))
            }
            return .answered(errorResponse(.notFound, "y \(route.y) is outside 0-\((1 << route.z) - 1) at zoom \(route.z)"))
        }
        switch layer.variableValues(from: request.queryItems) {
        case .success(let values):
            return .key(layer, TileKey(layer: layer.name, tile: tile, scale: route.scale, variables: values))
        case .failure(let problem):
            return .answered(errorResponse(.badRequest, problem.description))
        }
    }

    /// The answer for a pipeline result, noted with the cache's part for the access log.
    func answer(
        _ request: HTTPRequest, _ result: Result<TileOutcome, TileFailure>, layer: Layer, scale: Int,
        cacheUse: TileCacheUse
    ) -> HTTPResponse {
        var response = answer(request, result, layer: layer, scale: scale)
        response.note = cacheUse.rawValue
        if case .success(.tile(let tile)) = result, tile.staleAge != nil { response.note = cacheUse.rawValue + ",stale" }
        response.route = MetricsRoute.tile
        return response
    }

    private func answer(
        _ request: HTTPRequest, _ result: Result<TileOutcome, TileFailure>, layer: Layer, scale: Int
    ) -> HTTPResponse {
        switch result {
        case .success(.tile(let tile)):
            return tileAnswer(request, tile, layer: layer)
        case .success(.noTile):
            return noTileAnswer(request, layer: layer, scale: scale)
        case .success(.unavailable(let retryAfter)):
            return errorResponse(.serviceUnavailable, "this tile of layer \"\(layer.name)\" is not available now; retry later",
                                 extra: [(.retryAfter, String(retryAfter)), (.cacheControl, "no-store")])
        case .failure(let failure):
            return providerFailure(failure, layer: layer)
        }
    }

    /// 200 with the tile, or 304 when the client's copy matches. An unconditional request for
    /// a fresh tile gets the tile's prepared answer.
    func tileAnswer(_ request: HTTPRequest, _ tile: ServedTile, layer: Layer) -> HTTPResponse {
        if tile.staleAge == nil && !HTTPConditional.isConditional(request.headers) {
            return tile.preparedAnswer.response(layer: layer, cors: state.server.cors) {
                freshTileAnswer(request, tile, layer: layer)
            }
        }
        return freshTileAnswer(request, tile, layer: layer)
    }

    private func freshTileAnswer(_ request: HTTPRequest, _ tile: ServedTile, layer: Layer) -> HTTPResponse {
        var response = tileHead(request, etag: tile.etag, lastModified: tile.lastModified,
                                lastModifiedText: tile.lastModifiedText, staleAge: tile.staleAge, layer: layer)
        if response.status == .ok { response.body = tile.body }
        return response
    }

    /// The status (200, or 304 when the client's copy matches) and headers of a tile answer,
    /// without its body.
    func tileHead(
        _ request: HTTPRequest, etag: String, lastModified: Int?, lastModifiedText: String?, staleAge: Int?,
        layer: Layer
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(.contentType, "image/png")
        headers.add(.eTag, etag)
        if let lastModifiedText { headers.add(.lastModified, lastModifiedText) }
        headers.add(.cacheControl, layer.cacheControl)
        if let staleAge { headers.add(.age, String(staleAge)) }  // RFC 5861 §4: served stale on error
        addCORS(to: &headers)
        let fresh = HTTPConditional.isNotModified(request.headers, etag: etag, lastModified: lastModified)
        return HTTPResponse(status: fresh ? .notModified : .ok, headers: headers)
    }

    /// The layer's "no tile" answer: 404, 204 or a transparent tile, all cacheable.
    func noTileAnswer(_ request: HTTPRequest, layer: Layer, scale: Int) -> HTTPResponse {
        let caching = layer.cacheControl
        switch layer.settings.emptyTile {
        case .notFound:
            return errorResponse(.notFound, "no tile here", extra: [(.cacheControl, caching)])
        case .noContent:
            var headers: HTTPHeaders = [.cacheControl: caching]
            addCORS(to: &headers)
            return HTTPResponse(status: .noContent, headers: headers)
        case .transparent:
            return tileAnswer(request, TransparentTile.served(scale: scale), layer: layer)
        }
    }

    /// The one place a tile failure becomes an answer: logged once, then 502 or 500.
    func providerFailure(_ failure: TileFailure, layer: Layer) -> HTTPResponse {
        logger.error("tile source failed", metadata: ["layer": "\(layer.name)", "tile": "\(failure.key)", "error": "\(failure.error)"])
        switch failure.error {
        case .notPNG, .undecodable:
            return errorResponse(.badGateway, "layer \"\(layer.name)\": \(failure.error.description) (tile \(failure.key))")
        default:  // unreadable files, broken databases, misconfiguration: the operator reads the log
            return errorResponse(.internalServerError, "the source of layer \"\(layer.name)\" failed for tile \(failure.key); see the server log")
        }
    }
}
