import Dispatch
import Logging
import Synchronization
import TileCache
import TileProviders

/// Produces tile outcomes: from the memory cache when it can, else from the layer's source
/// (native tiles) or the renderer (derived tiles), with concurrent misses coalesced into one
/// provider call. Errors and "not available now" are never stored.
final class TilePipeline: Sendable {
    typealias Completion = @Sendable (Result<TileOutcome, TileFailure>) -> Void
    /// A completion that is also told how the cache took part.
    typealias NotedCompletion = @Sendable (Result<TileOutcome, TileFailure>, TileCacheUse) -> Void

    let cache: MemoryCache<TileKey, TileOutcome>
    let logger: Logger
    /// Per-layer counters of hits, misses, joins, provider calls and renders; replaced on reload.
    private let metricsTable: Mutex<PipelineMetrics>
    /// The disk tiers of the layers seen so far, by layer name (for `clear`).
    let diskTiers = Mutex<[String: LayerDiskTier]>([:])
    /// ETags of tile files sent straight from disk, by file version.
    let fileFingerprints = TileFileFingerprints()

    /// Where sources that may block are called from async code (renders).
    let workers: WorkerPool

    init(
        cache: MemoryCache<TileKey, TileOutcome>, logger: Logger, metrics: PipelineMetrics = PipelineMetrics(),
        workers: WorkerPool = WorkerPool(threads: 16, queueLimit: 4096)
    ) {
        self.cache = cache
        self.logger = logger
        self.workers = workers
        self.metricsTable = Mutex(metrics)
    }

    /// The per-layer counters.
    var metrics: PipelineMetrics {
        get { metricsTable.withLock { $0 } }
        set { metricsTable.withLock { $0 = newValue } }
    }

    /// The outcome for `key`: returned at once when it is ready (a hit, a synchronous source),
    /// else nil and `completion` is called once, later, from any thread.
    func outcome(for key: TileKey, layer: Layer, completion: @escaping Completion) -> Result<TileOutcome, TileFailure>? {
        outcome(for: key, layer: layer, noting: { result, _ in completion(result) })?.result
    }

    /// `outcome(for:layer:completion:)`, telling also how the cache took part (hit, miss,
    /// coalesced), and counting that per layer.
    func outcome(
        for key: TileKey, layer: Layer, noting completion: @escaping NotedCompletion
    ) -> (result: Result<TileOutcome, TileFailure>, cache: TileCacheUse)? {
        let counters = metrics[layer.name]
        guard layer.settings.cache.memory ?? true else {
            return fill(key, layer: layer, counters: counters) { completion($0, .bypass) }.map { ($0, .bypass) }
        }
        switch cache.lookupOrJoin(key) {
        case .hit(let outcome):
            counters?.hits.increment()
            return (.success(outcome), .hit)
        case .joined(let fill):
            counters?.coalesced.increment()
            fill.onCompletion { completion(Self.failure(from: $0, key: key), .coalesced) }
            return nil
        case .mustFill(let token):
            counters?.misses.increment()
            let store: @Sendable (Result<TileOutcome, TileFailure>) -> Void = { [cache] result in
                if case .success(let outcome) = result, case .store(_, let cost) = outcome.cacheFill {
                    counters?.storedBytes.increment(by: cost)
                }
                cache.complete(token, with: result.map(\.cacheFill).mapError { $0 as any Error })
            }
            let now = fill(key, layer: layer, counters: counters) { result in
                store(result)
                completion(result, .miss)
            }
            if let now { store(now) }
            return now.map { ($0, .miss) }
        }
    }

    /// The outcome for `key`, awaited (used by renderers for the tiles they are made from).
    /// The lookup runs on the workers: a synchronous source may block on file I/O there, never
    /// on the Swift-concurrency pool or an event loop. A full worker queue is "not available now".
    func outcome(for key: TileKey, layer: Layer) async -> Result<TileOutcome, TileFailure> {
        await withCheckedContinuation { continuation in
            let queued = workers.submit { [self] in
                if let now = outcome(for: key, layer: layer, completion: { continuation.resume(returning: $0) }) {
                    continuation.resume(returning: now)
                }
            }
            if !queued { continuation.resume(returning: .success(.unavailable(retryAfter: 1))) }
        }
    }

    private static func failure(from result: Result<TileOutcome, any Error>, key: TileKey) -> Result<TileOutcome, TileFailure> {
        result.mapError { error in
            (error as? TileFailure) ?? TileFailure(key: key, error: .invalidConfiguration("tile fill failed: \(error)"))
        }
    }

    /// Makes the outcome without the caches: the source's own tile, or a derived one.
    func produce(
        _ key: TileKey, layer: Layer, counters: LayerMetrics?, completion: @escaping Completion
    ) -> Result<TileOutcome, TileFailure>? {
        guard layer.servesNatively(scale: key.scale) else {
            counters?.renders.increment()
            Task { completion(await TileRenderer(pipeline: self, logger: logger).derived(key, layer: layer)) }
            return nil
        }
        let request = TileRequest(tile: key.tile, variables: key.variables)
        counters?.providerCalls.increment()
        switch layer.source {
        case .sync(let provider):
            return Self.outcome(Result { () throws(TileProviderError) in try provider.tile(for: request) }, key: key)
        case .async(let provider):
            Task {
                let result = await Result(catching: { () async throws(TileProviderError) in try await provider.requestTile(request) })
                completion(Self.outcome(result, key: key))
            }
            return nil
        }
    }

    /// A provider's answer as an outcome: tiles must be PNGs.
    static func outcome(_ result: Result<TileResult, TileProviderError>, key: TileKey) -> Result<TileOutcome, TileFailure> {
        switch result {
        case .failure(let error):
            return .failure(TileFailure(key: key, error: error))
        case .success(.tile(let tile)):
            guard PNGSignature.matches(tile.data) else {
                return .failure(TileFailure(key: key, error: .notPNG(source: "tile \(key)")))
            }
            return .success(.tile(ServedTile(body: tile.data, lastModified: tile.lastModified)))
        case .success(.noTile):
            return .success(.noTile)
        case .success(.unavailable(let retryAfter)):
            return .success(.unavailable(retryAfter: retryAfter))
        }
    }
}

extension TileOutcome {
    /// How the cache treats the outcome: "not available now" and stale copies are handed on,
    /// never stored.
    var cacheFill: CacheFillResult<TileOutcome> {
        if case .unavailable = self { return .doNotStore(self) }
        if case .tile(let tile) = self, tile.staleAge != nil { return .doNotStore(self) }
        return .store(self, cost: cost)
    }
}
