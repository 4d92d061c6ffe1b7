import TileCache
import TileHTTP
import TileProviders

/// Tile requests (`/{layer}/{z}/{x}/{y}.{ext}`, and the WMTS and OGC API tiles that resolve to
/// them): planned once on the event loop that parsed them (`TilePlan`), answered there from
/// memory or a tile file the kernel's caches hold, else resumed on a worker, a render or a fill
/// under way.
struct TileEndpoint: ServiceEndpoint {
    let core: ServiceCore

    /// The answer to a tile request, on the event loop that parsed it: at once for a refusal, a
    /// memory hit or a tile file it can read without waiting; otherwise nil, and `completion`
    /// later, once a worker (a source that may block), a render or a fill under way has it.
    func answer(
        _ request: HTTPRequest, _ route: TileRoute, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let plan: TilePlan
        switch self.plan(request, route) {
        case .answered(let response): return response
        case .planned(let planned): plan = planned
        }
        if let files = plan.layer.fileSource, plan.layer.servesNatively(scale: plan.key.scale) {
            return fileTileAnswer(plan, files: files, completion: completion)
        }
        return pipelineAnswer(plan, onLoop: true, completion: completion)
    }

    /// The answer through the pipeline's lookup and fill: a hit at once, a fill under way joined;
    /// a fill to make continues `onLoop` on a worker, with the token this lookup took (no second
    /// lookup), else here (a worker: a synchronous source's read runs here). The loop's lookup
    /// counts the request for the cache's admission.
    func pipelineAnswer(_ plan: TilePlan, onLoop: Bool, completion: @escaping @Sendable (HTTPResponse) -> Void) -> HTTPResponse? {
        switch pipeline.lookUp(plan.key, layer: plan.layer, countingRequest: onLoop) {
        case .hit(let entry):
            plan.counters?.hits.increment()
            return answer(plan, entry.outcome, cacheUse: .hit)
        case .joined(let fill):
            plan.counters?.coalesced.increment()
            let deliver = onLoop ? deferred(plan, completion) : completion
            TilePipeline.joined(fill, key: plan.key) { [self] in deliver(answer(plan, $0.result, cacheUse: .coalesced)) }
            return nil
        case .mustFill(let token):
            if onLoop, let kept = pipeline.revalidatingWithoutWaiting(token, layer: plan.layer) {
                plan.counters?.hits.increment()
                return answer(plan, kept.outcome, cacheUse: .hit)
            }
            let use = TileCacheUse.notHit(cached: plan.layer.cachesInMemory)
            let fill: @Sendable (@escaping @Sendable (HTTPResponse) -> Void) -> HTTPResponse? = { [self] deliver in
                pipeline.fill(token, layer: plan.layer, counters: plan.counters) {
                    deliver(answer(plan, $0.result, cacheUse: $0.cacheUse(use)))
                }.map { answer(plan, $0.result, cacheUse: $0.cacheUse(use)) }
            }
            guard onLoop else { return fill(completion) }
            return onWorkers(plan, completion: completion, held: token.expired, refused: { servedHeld in
                // A copy served while the server sheds stays as it was (still due for its check).
                if servedHeld, let held = token.expired {
                    token.complete(with: .success(.store(held, cost: held.cost)))
                } else {
                    token.completeUnavailable()
                }
            }, fill)
        }
    }

    /// A tile request's plan, or the answer that ends it (unknown layer, zoom out of range, bad
    /// variables), with the CORS policy of the state read here.
    enum TilePlanning {
        case planned(TilePlan)
        case answered(HTTPResponse)
    }

    func plan(_ request: HTTPRequest, _ route: TileRoute) -> TilePlanning {
        let state = self.state
        func refused(_ error: ServiceError) -> TilePlanning { .answered(errorAnswer(error, to: request, cors: state.cors)) }
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
            let key = TilePipeline.stamped(TileKey(layer: layer.name, tile: tile, scale: route.scale, variables: values),
                                           layer: layer)
            return .planned(TilePlan(request: request, layer: layer, key: key, cors: state.cors,
                                     counters: pipeline.metrics[layer.name]))
        case .failure(let problem):
            return refused(.badRequest(problem.description))
        }
    }
}
