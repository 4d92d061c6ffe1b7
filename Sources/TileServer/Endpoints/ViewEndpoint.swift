import Hashing
import TileGeometry
import TileHTTP
import TileProviders
import TilePNG

/// Map views: `/static` (a view rendered from a layer's tiles, or described as JSON) and the
/// camera API (`/camera`), one camera model for both.
struct ViewEndpoint: ServiceEndpoint {
    let core: ServiceCore

    /// The answer to a `/static` request: at once for JSON and for errors; for a PNG nil, and
    /// `completion` once the view is rendered.
    func staticResponse(
        _ request: HTTPRequest, _ route: StaticRoute, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let resolved: ResolvedView
        switch resolveView(request, route, probes: false) {
        case .view(let view): resolved = view
        case .refused(let answer): return answer
        }
        switch route.format {
        case .json:
            return staticAnswer(request, body: Array(resolved.view.json.serialized.utf8),
                                contentType: "application/json", layer: resolved.layer)
        case .png:
            Task(executorPreference: RenderExecutor.shared) { [self] in
                completion(await renderedAnswer(request, resolved.view, layer: resolved.layer, variables: resolved.variables))
            }
            return nil
        }
    }

    /// The view `route` and the request's query name, checked against its layer (the layer's own
    /// query variables too), or the 404/400 that refuses it. `probes`: whether `point` and
    /// `coordinate` are read (`/camera`) or left to the layer (`/static`). The one place view errors
    /// (`StaticMapError`, a layer's `TileVariableError`) become answers, for both routes.
    func resolveView(_ request: HTTPRequest, _ route: StaticRoute, probes: Bool) -> ViewResolution {
        guard let layer = state.layers[route.layer] else {
            return .refused(errorAnswer(.notFound("unknown layer \"\(route.layer)\""), to: request))
        }
        guard TileImageCodec.canDerive(layer.format) else {
            let reason = TileImageCodec.Unsupported(format: layer.format).description
            return .refused(errorAnswer(.badRequest("layer \"\(layer.name)\" cannot be drawn: \(reason)"), to: request))
        }
        let view: StaticView
        let query: StaticQuery
        do throws(StaticMapError) {
            query = try StaticQuery(request.queryItems, probes: probes)
            view = try StaticView(route: route, query: query, layer: layer)
        } catch {
            return .refused(errorAnswer(.badRequest(error.description), to: request))
        }
        switch layer.variableValues(from: query.layerItems) {
        case .success(let values): return .view(ResolvedView(view: view, query: query, layer: layer, variables: values))
        case .failure(let problem): return .refused(errorAnswer(.badRequest(problem.description), to: request))
        }
    }

    /// The view rendered and encoded, or the 503/502/500 that stands in for it.
    private func renderedAnswer(_ request: HTTPRequest, _ view: StaticView, layer: Layer,
                                variables: [String: String]) async -> HTTPResponse {
        switch await StaticRenderer(pipeline: pipeline).render(view, layer: layer, variables: variables) {
        case .success(.image(let image, _, _)):
            do {
                let body = try StaticRenderer.encoder.encode(image)
                return staticAnswer(request, body: body, contentType: "image/png", layer: layer)
            } catch {
                return errorAnswer(.internalError("the static view of layer \"\(layer.name)\" could not be encoded (\(error))"),
                                   to: request)
            }
        case .success(.unavailable(let retryAfter)):
            return errorAnswer(.unavailable("a tile of layer \"\(layer.name)\" in this view is not available now; retry later",
                                            retryAfter: retryAfter), to: request)
        case .failure(let failure):
            // The same failure as on the tile itself, with the same status.
            return errorAnswer(.tileFailed(failure, layer: layer.name), to: request)
        }
    }

    /// 200 with a content-hash ETag and the layer's caching, or 304 when the client's copy matches.
    func staticAnswer(_ request: HTTPRequest, body: [UInt8], contentType: String, layer: Layer) -> HTTPResponse {
        let etag = ContentHash.etag(of: body)
        var headers = HTTPHeaders()
        headers.add(.contentType, contentType)
        headers.add(.eTag, etag)
        headers.add(.cacheControl, "public, max-age=\(layer.settings.maxAge)")
        addCORS(to: &headers, for: request)
        if HTTPConditional.isNotModified(request.headers, etag: etag, lastModified: nil) {
            return HTTPResponse(status: .notModified, headers: headers)
        }
        return HTTPResponse(status: .ok, headers: headers, body: body)
    }
}
