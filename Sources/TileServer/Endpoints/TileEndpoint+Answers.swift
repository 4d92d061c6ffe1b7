import TileHTTP
import TileProviders

extension TileEndpoint {
    /// The answer for a pipeline result, noted with the cache's part for the access log.
    func answer(_ plan: TilePlan, _ result: Result<TileOutcome, TileFailure>, cacheUse: TileCacheUse) -> HTTPResponse {
        switch result {
        case .success(let outcome):
            return answer(plan, outcome, cacheUse: cacheUse)
        case .failure(let failure):
            return noted(errorAnswer(.tileFailed(failure, layer: plan.layer.name), to: plan.request, cors: plan.cors),
                         cacheUse: cacheUse)
        }
    }

    /// The answer for an outcome: the tile, "no tile" or "not available now".
    func answer(_ plan: TilePlan, _ outcome: TileOutcome, cacheUse: TileCacheUse) -> HTTPResponse {
        let response: HTTPResponse
        var stale = false
        switch outcome {
        case .tile(let tile):
            stale = tile.staleAge != nil
            response = tileAnswer(plan.request, tile, layer: plan.layer, cors: plan.cors)
        case .noTile:
            response = noTileAnswer(plan.request, layer: plan.layer, scale: plan.key.scale, cors: plan.cors)
        case .unavailable(let retryAfter):
            response = errorAnswer(.unavailable("this tile of layer \"\(plan.layer.name)\" is not available now; retry later",
                                                retryAfter: retryAfter), to: plan.request, cors: plan.cors)
        }
        return noted(response, cacheUse: cacheUse, stale: stale)
    }

    /// A tile answer labelled for the access log (the cache's part, ",stale" for a stale copy)
    /// and the metrics (route "tile"). A label it carries already is not set again: a cached
    /// tile's prepared answer is labelled a hit once, and a hit then copies nothing of it.
    func noted(_ answer: consuming HTTPResponse, cacheUse: TileCacheUse, stale: Bool = false) -> HTTPResponse {
        let note = stale ? cacheUse.rawValue + ",stale" : cacheUse.rawValue
        if answer.note != note { answer.note = note }
        if answer.route != MetricsRoute.tile { answer.route = MetricsRoute.tile }
        return consume answer
    }

    /// 200 with the tile, or 304 when the client's copy matches. An unconditional request for
    /// a tile that goes out without an `Age` gets the tile's prepared answer, made once and kept
    /// with the tile under the CORS key it holds (`PreparedTileAnswer`). A gzip-compressed
    /// (vector) tile has two representations, chosen per request: never prepared.
    func tileAnswer(_ request: HTTPRequest, _ tile: ServedTile, layer: Layer, cors: CORSPolicy) -> HTTPResponse {
        if tile.staleAge == nil && layer.memoryLifetime == nil && !tile.isGzip && !HTTPConditional.isConditional(request.headers) {
            return tile.preparedResponse(layer: layer, cors: cors.answerKey(for: request)) {
                // Labelled as what it is given for most: a memory hit.
                noted(freshTileAnswer(request, tile, layer: layer, cors: cors).prepared(), cacheUse: .hit)
            }
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
        response.content = identity.map { .bytes($0) } ?? tile.sentBody
        return response
    }

    /// The answer for a tile file's version of `fingerprint` (`TileFingerprints`), with `body`
    /// (the file, or its bytes read for this answer): to a conditional request a head made now
    /// (200, or 304 when the client's copy matches); to an unconditional one the version's 200,
    /// head encoded once (the body's length is part of the version), `body` attached.
    func fingerprintedAnswer(
        _ request: HTTPRequest, _ fingerprint: TileFingerprint, lastModified: Int, layer: Layer, cors: CORSPolicy,
        body: HTTPBody
    ) -> HTTPResponse {
        func head() -> HTTPResponse {
            tileHead(request, etag: fingerprint.etag, lastModified: lastModified,
                     lastModifiedText: fingerprint.lastModifiedText, age: nil, layer: layer, cors: cors)
        }
        guard !HTTPConditional.isConditional(request.headers) else {
            var response = head()
            if response.status == .ok { response.content = body }
            return response
        }
        return fingerprint.preparedAnswer.response(layer: layer, cors: cors.answerKey(for: request)) {
            head().prepared(bodyCount: body.count)
        }.sending(body)
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
