import TileHTTP
import TileProviders

extension TileService {
    /// The answer to a tile request: at once on a cache hit or a synchronous source, else nil
    /// and `completion` later. It may block (files, databases): it runs on the workers.
    func tileResponse(
        _ request: HTTPRequest, _ route: TileRoute, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let (layer, key): (Layer, TileKey)
        let cors: CORSPolicy
        switch tileLookup(request, route) {
        case .answered(let response): return response
        case .key(let found, let made, let state): (layer, key, cors) = (found, made, state.cors)
        }
        if let sent = fileTileResponse(request, key: key, layer: layer, mayBlock: true, cors: cors,
                                       counters: pipeline.metrics[layer.name]) { return sent }
        let now = pipeline.outcome(for: key, layer: layer) { [self] result, cacheUse in
            completion(answer(request, result, layer: layer, scale: route.scale, cors: cors, cacheUse: cacheUse))
        }
        return now.map { answer(request, $0.result, layer: layer, scale: route.scale, cors: cors, cacheUse: $0.cache) }
    }

    /// The answer to a tile request when it needs no wait — a bad request, a memory hit, a tile
    /// file the kernel's caches can open and, if never seen, read to hash it
    /// (`fileTileResponse` with `mayBlock` false), an archive tile read from the page cache
    /// (`archiveTileResponseWithoutWaiting`) — for the event loop; nil when the workers
    /// must answer.
    func tileResponseWithoutWaiting(_ request: HTTPRequest, _ route: TileRoute) -> HTTPResponse? {
        // Taken before the state and the cache are read: a clear or reload after it revokes
        // what they give.
        let reuse = answerReuse.mark()
        switch tileLookup(request, route) {
        case .answered(let response):
            return response
        case .key(let layer, let key, let state):
            // The state read once (`tileLookup`): each read takes the service's lock, which
            // both loops share.
            let cors = state.cors
            // Each request is counted here, once, for the memory cache's admission of tiles it
            // could send without keeping (files, archive tiles read on the loop).
            let counters = pipeline.metrics[layer.name]
            if let hit = pipeline.memoryHit(for: key, layer: layer, counters: counters, countingRequest: true) {
                // Pinned: a cached tile changes only with a clear or a reload, which revoke, or
                // once evicted and read again (`server.cache.reuseHitSeconds` bounds that).
                return hitAnswer(request, hit, layer: layer, scale: key.scale, cors: cors,
                                 reuse: counters.map { reuse.tagged($0.repeatedHit).pinned() })
            }
            return fileTileResponse(request, key: key, layer: layer, mayBlock: false, cors: cors, counters: counters,
                                    reuse: reuse)
                ?? archiveTileResponseWithoutWaiting(request, key: key, layer: layer, cors: cors, reuse: reuse,
                                                     counters: counters)
        }
    }

    /// A tile request's layer and cache key, with the state they were read from (every answer
    /// to the request, a tile, "no tile" or an error, takes its CORS policy from there), or the
    /// answer that ends it (unknown layer, zoom out of range, bad variables).
    enum TileLookup {
        case key(Layer, TileKey, ServiceState)
        case answered(HTTPResponse)
    }

    private func tileLookup(_ request: HTTPRequest, _ route: TileRoute) -> TileLookup {
        let state = self.state
        // A refusal, with the CORS headers of the state read here.
        func refused(_ error: ServiceError) -> TileLookup { .answered(errorAnswer(error, to: request, cors: state.cors)) }
        guard let layer = route.layer.map({ state.layers[$0] }) ?? state.layers.defaultLayer else {
            return refused(.notFound(route.layer.map { "unknown layer \"\($0)\"" }
                ?? "no default layer is configured; use /{layer}/{z}/{x}/{y}.{ext}"))
        }
        if let problem = formatProblem(route, layer: layer) { return refused(.notFound(problem)) }
        guard let tile = layer.tileCoordinate(z: route.z, x: route.x, y: route.y) else {
            if route.z < layer.minZoom || route.z > layer.maxZoom {
                return refused(.notFound(
                    "zoom \(route.z) is outside layer \"\(layer.name)\"'s range \(layer.minZoom)-\(layer.maxZoom)"))
            }
            return refused(.notFound("y \(route.y) is outside 0-\((1 << route.z) - 1) at zoom \(route.z)"))
        }
        switch layer.variableValues(from: request.queryItems) {
        case .success(let values):
            return .key(layer, TileKey(layer: layer.name, tile: tile, scale: route.scale, variables: values), state)
        case .failure(let problem):
            return refused(.badRequest(problem.description))
        }
    }

    /// The answer for a memory hit: `answer(_:_:layer:scale:cacheUse:)` with `.hit`, without
    /// wrapping a tile in a `Result` on the hot path. A tile's prepared answer carries `reuse`,
    /// when given, so the event loop may give it again to the same request head.
    func hitAnswer(
        _ request: HTTPRequest, _ outcome: TileOutcome, layer: Layer, scale: Int, cors: CORSPolicy,
        reuse: HTTPAnswerReuse.Mark? = nil
    ) -> HTTPResponse {
        guard case .tile(let tile) = outcome else {
            return answer(request, .success(outcome), layer: layer, scale: scale, cors: cors, cacheUse: .hit)
        }
        return noted(tileAnswer(request, tile, layer: layer, cors: cors, reuse: reuse), cacheUse: .hit,
                     stale: tile.staleAge != nil)
    }

    /// The answer for a pipeline result, noted with the cache's part for the access log. `cors`:
    /// the policy of the state the request's layer was found in.
    func answer(
        _ request: HTTPRequest, _ result: Result<TileOutcome, TileFailure>, layer: Layer, scale: Int, cors: CORSPolicy,
        cacheUse: TileCacheUse
    ) -> HTTPResponse {
        var stale = false
        if case .success(.tile(let tile)) = result { stale = tile.staleAge != nil }
        return noted(answer(request, result, layer: layer, scale: scale, cors: cors), cacheUse: cacheUse, stale: stale)
    }

    /// A tile answer labelled for the access log (the cache's part, ",stale" for a stale copy)
    /// and the metrics (route "tile").
    func noted(_ answer: consuming HTTPResponse, cacheUse: TileCacheUse, stale: Bool = false) -> HTTPResponse {
        answer.noteTile(cacheUse, stale: stale)
        return consume answer
    }

    private func answer(
        _ request: HTTPRequest, _ result: Result<TileOutcome, TileFailure>, layer: Layer, scale: Int, cors: CORSPolicy
    ) -> HTTPResponse {
        switch result {
        case .success(.tile(let tile)):
            return tileAnswer(request, tile, layer: layer, cors: cors)
        case .success(.noTile):
            return noTileAnswer(request, layer: layer, scale: scale, cors: cors)
        case .success(.unavailable(let retryAfter)):
            return errorAnswer(.unavailable("this tile of layer \"\(layer.name)\" is not available now; retry later",
                                            retryAfter: retryAfter), to: request, cors: cors)
        case .failure(let failure):
            return errorAnswer(.tileFailed(failure, layer: layer.name), to: request, cors: cors)
        }
    }

    /// 200 with the tile, or 304 when the client's copy matches. An unconditional request for
    /// a tile that goes out without an `Age` gets the tile's prepared answer.
    /// `cors` is the policy of the state the request was read on, given once, so a prepared
    /// answer is kept under the very CORS headers it holds (a reload in between cannot file one
    /// policy's answer under the other's key).
    /// A gzip-compressed (vector) tile has two representations, chosen per request: never prepared.
    func tileAnswer(
        _ request: HTTPRequest, _ tile: ServedTile, layer: Layer, cors: CORSPolicy, reuse: HTTPAnswerReuse.Mark? = nil
    ) -> HTTPResponse {
        if tile.staleAge == nil && layer.memoryLifetime == nil && !tile.isGzip && !HTTPConditional.isConditional(request.headers) {
            var prepared = tile.preparedResponse(layer: layer, cors: cors.answerKey(for: request)) {
                freshTileAnswer(request, tile, layer: layer, cors: cors).prepared()
            }
            prepared.reuse = reuse
            return prepared
        }
        return freshTileAnswer(request, tile, layer: layer, cors: cors)
    }

    /// The tile as stored, or, for a gzip-compressed tile and a client whose `Accept-Encoding`
    /// refuses gzip, decompressed (made once per tile, never re-compressed) under its own ETag.
    private func freshTileAnswer(_ request: HTTPRequest, _ tile: ServedTile, layer: Layer, cors: CORSPolicy) -> HTTPResponse {
        var etag = tile.etag
        var identity: [UInt8]?
        var contentEncoding: String?
        if tile.isGzip {
            // A copy that does not decompress (only a disk-tier one can be: fills are checked) goes out as stored.
            if let decompressed = tile.identityBody, !HTTPAcceptEncoding.accepts("gzip", in: request.headers.values(.acceptEncoding)) {
                etag = tile.identityETag
                identity = decompressed
            } else {
                contentEncoding = "gzip"
            }
        }
        var response = tileHead(request, etag: etag, lastModified: tile.lastModified,
                                lastModifiedText: tile.lastModifiedText, age: tile.age(in: layer), layer: layer, cors: cors,
                                caching: tile.upstreamCaching)
        if tile.isGzip { response.headers.add(.vary, HTTPHeaderName.acceptEncoding.rawValue) }
        if let contentEncoding { response.headers.add(.contentEncoding, contentEncoding) }
        guard response.status == .ok else { return response }
        // A stored body kept in the memory cache's arena goes out with sendfile.
        if let identity { response.body = identity } else if let kept = tile.kept { response.file = kept.fileBody } else { response.body = tile.body }
        return response
    }

    /// The status (200, or 304 when the client's copy matches) and headers of a tile answer,
    /// without its body: `Content-Type` of the layer's format; the layer's `Cache-Control`, or
    /// the upstream's `Cache-Control`/`Expires` when `caching` carries them.
    func tileHead(
        _ request: HTTPRequest, etag: String, lastModified: Int?, lastModifiedText: String?, age: Int?,
        layer: Layer, cors: CORSPolicy, caching: UpstreamCaching? = nil
    ) -> HTTPResponse {
        var headers = HTTPHeaders()
        headers.add(.contentType, layer.format.contentType)
        headers.add(.eTag, etag)
        if let lastModifiedText { headers.add(.lastModified, lastModifiedText) }
        if let caching, caching.cacheControl != nil || caching.expires != nil {
            if let value = caching.cacheControl { headers.add(.cacheControl, value) }
            if let value = caching.expires { headers.add(.expires, value) }
        } else {
            headers.add(.cacheControl, layer.cacheControl)
        }
        if let age { headers.add(.age, String(age)) }  // RFC 9111 §5.1; RFC 5861 §4 when served stale
        cors.addHeaders(to: &headers, for: request)
        let fresh = HTTPConditional.isNotModified(request.headers, etag: etag, lastModified: lastModified)
        return HTTPResponse(status: fresh ? .notModified : .ok, headers: headers)
    }

    /// The layer's "no tile" answer: 404, 204 or a transparent tile, all cacheable. `cors`: the
    /// policy of the state the request's layer was found in.
    func noTileAnswer(
        _ request: HTTPRequest, layer: Layer, scale: Int, cors: CORSPolicy, as answer: EmptyTileAnswer? = nil
    ) -> HTTPResponse {
        let caching = layer.cacheControl
        switch answer ?? layer.settings.emptyTile {
        case .notFound:
            return errorAnswer(.noTile(layer: layer.name, cacheControl: caching), to: request, cors: cors)
        case .noContent:
            var headers: HTTPHeaders = [.cacheControl: caching]
            cors.addHeaders(to: &headers, for: request)
            return HTTPResponse(status: .noContent, headers: headers)
        case .transparent:
            // SPEC: an empty vector tile may be a 204 (raster formats without a codec are refused at start-up).
            guard let tile = TransparentTile.served(scale: scale, format: layer.format) else {
                return noTileAnswer(request, layer: layer, scale: scale, cors: cors, as: .noContent)
            }
            return tileAnswer(request, tile, layer: layer, cors: cors)
        }
    }
}

extension HTTPResponse {
    /// Labels a tile answer in place, as `TileService.noted(_:cacheUse:stale:)` does: for an
    /// answer in a variable, which passed to `noted` would be copied.
    mutating func noteTile(_ cacheUse: TileCacheUse, stale: Bool = false) {
        note = stale ? cacheUse.rawValue + ",stale" : cacheUse.rawValue
        route = MetricsRoute.tile
    }
}
