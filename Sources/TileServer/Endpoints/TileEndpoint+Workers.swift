import TileHTTP

extension TileEndpoint {
    /// Runs `work` on the workers; its answer goes to `completion` once (`DeferredAnswer`): what
    /// `work` returns, what it passes to the handler it is given, or at the tile's deadline a
    /// 503. Nil when queued. Cold work is shed (`LoadShedding`): a 503 with `Retry-After` at
    /// once, after `refused(false)` — or, when `held` is an entry only due for a check of its
    /// source, that entry, after `refused(true)`: a tile in memory keeps flowing. A full queue
    /// is a 503 too.
    func onWorkers(
        _ plan: TilePlan, completion: @escaping @Sendable (HTTPResponse) -> Void, held: CachedOutcome? = nil,
        refused: ((_ servedHeld: Bool) -> Void)? = nil,
        _ work: @escaping @Sendable (_ deliver: @escaping @Sendable (HTTPResponse) -> Void) -> HTTPResponse?
    ) -> HTTPResponse? {
        let server = state.server, layer = plan.layer
        // Render threads run derived tiles, composites and the awaits of asynchronous sources.
        var native = layer.servesNatively(scale: plan.key.scale)
        if case .async = layer.source { native = false }
        let renders = native ? nil : RenderExecutor.shared
        let shedding = core.shedding
        if let shed = shedding.refusal(layer: layer.name, maxWait: server.workerMaxWait, workers: workers, renders: renders) {
            if let held, held.mayServeUnchecked(lifetime: layer.memoryLifetime, now: LayerDiskTier.now(),
                                               since: layer.recheckedSince) {
                refused?(true)
                plan.counters?.hits.increment()
                return answer(plan, held.outcome, cacheUse: .hit)
            }
            refused?(false)
            plan.counters?.shed.increment()
            let message = "the server is busy: new work would wait about \(Int(shed.wait.rounded(.up))) s; retry later"
            var refusal = errorAnswer(.unavailable(message, retryAfter: shed.retryAfter), to: plan.request, cors: plan.cors)
            refusal.restSeconds = LoadShedding.restSeconds
            return noted(refusal, cacheUse: .notHit(cached: layer.cachesInMemory))
        }
        let answer = DeferredAnswer(completion, whenAnswered: { shedding.answered(layer: layer.name) })
        shedding.admitted(layer: layer.name)
        guard workers.submit({ if let now = work(answer.handler) { answer.deliver(now) } }) else {
            shedding.answered(layer: layer.name)
            refused?(false)
            return errorAnswer(.unavailable("the server is busy; retry later", retryAfter: 1), to: plan.request, cors: plan.cors)
        }
        expire(answer, plan, answerSeconds: server.answerSeconds)
        return nil
    }

    /// `completion` as a `DeferredAnswer`'s handler, with the tile's deadline set.
    func deferred(_ plan: TilePlan, _ completion: @escaping @Sendable (HTTPResponse) -> Void) -> @Sendable (HTTPResponse) -> Void {
        let answer = DeferredAnswer(completion)
        expire(answer, plan, answerSeconds: state.server.answerSeconds)
        return answer.handler
    }

    /// Sets `answer`'s deadline: a 503 with the layer's CORS header, counted under route "tile".
    private func expire(_ answer: DeferredAnswer, _ plan: TilePlan, answerSeconds: Double) {
        let seconds = DeferredAnswer.tileDeadline(answerSeconds: answerSeconds)
        answer.expire(after: seconds) { [self] in
            let message = "tile \(plan.key) of layer \"\(plan.layer.name)\" was not ready within \(Int(seconds.rounded())) s; retry later"
            return noted(errorAnswer(.unavailable(message, retryAfter: 1), to: plan.request, cors: plan.cors),
                         cacheUse: .notHit(cached: plan.layer.cachesInMemory))
        }
    }
}
