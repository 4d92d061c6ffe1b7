import Dispatch
import Logging
import Synchronization
import TileCache
import TilePNG
import TileProviders

/// Produces tile outcomes: from the memory cache when it can, else from the layer's source
/// (native tiles) or the renderer (derived tiles), with concurrent misses coalesced into one
/// provider call whether the layer keeps its tiles in memory or not. Keys are stamped with the
/// layer's generation, so a rebuilt or cleared layer (or composite member) never meets an older
/// answer. Errors and "not available now" are never stored.
final class TilePipeline: Sendable {
    typealias Completion = @Sendable (Result<TileOutcome, TileFailure>) -> Void
    /// A completion that is also told how the cache took part.
    typealias NotedCompletion = @Sendable (Result<TileOutcome, TileFailure>, TileCacheUse) -> Void

    let cache: MemoryCache<TileKey, CachedOutcome>
    /// Coalesces the misses of layers that keep nothing in memory (`cache.memory: false`): it
    /// stores nothing, but one provider call serves every request for a tile made meanwhile.
    let uncachedFills = MemoryCache<TileKey, CachedOutcome>(capacity: 0)
    /// Decoded tiles by ETag for `/static` views (a content hash, so a re-made tile is a new key
    /// and a cleared one is never drawn from here): views of one area decode each tile once.
    /// Its capacity is part of `server.cache.memoryBytes` (`MemoryBudget`).
    let decodedTiles: MemoryCache<String, RGBAImage>
    let logger: Logger
    /// Per-layer counters of hits, misses, joins, provider calls and renders; replaced on reload.
    private let metricsTable: Mutex<PipelineMetrics>
    /// The disk tiers of the layers served now, by layer name (for `clear` and `waitForDiskWrites`).
    let diskTiers = Mutex<[String: LayerDiskTier]>([:])
    /// ETags of tile files sent straight from disk, by file version.
    let fileFingerprints = TileFingerprints<FileIdentity>()
    /// ETags of archive tiles read on an event loop (sent past the memory cache), by contents version.
    let archiveFingerprints = TileFingerprints<ArchiveTileVersion>()

    /// Where sources that may block are called from async code (renders).
    let workers: WorkerPool
    /// The shared Redis tier (`server.cache.redis`), for the layers that opt in.
    let redis: RedisTileTier?

    init(
        cache: MemoryCache<TileKey, CachedOutcome>, decodedTiles: MemoryCache<String, RGBAImage>, logger: Logger,
        metrics: PipelineMetrics = PipelineMetrics(), workers: WorkerPool = WorkerPool(), redis: RedisTileTier? = nil
    ) {
        self.redis = redis
        self.cache = cache
        self.decodedTiles = decodedTiles
        self.logger = logger
        self.workers = workers
        self.metricsTable = Mutex(metrics)
    }

    /// The per-layer counters.
    var metrics: PipelineMetrics {
        get { metricsTable.withLock { $0 } }
        set { metricsTable.withLock { $0 = newValue } }
    }

    /// `key` with `layer`'s generation now.
    static func stamped(_ key: TileKey, layer: Layer) -> TileKey {
        var key = key
        key.generation = layer.generation
        return key
    }

    /// Whether the memory cache would take in a native tile of `byteCount` bytes for `key` of
    /// `layer` (`MemoryCache.admits`): one the caller can send without storing (a tile file, an
    /// archive tile read on an event loop) is stored only then, and sent as it lies otherwise.
    func admits(_ key: TileKey, layer: Layer, byteCount: Int) -> Bool {
        cache.admits(Self.stamped(key, layer: layer), cost: byteCount + TileOutcome.entryOverhead)
    }

    /// The fresh cached outcome for `key` of `layer`, if memory holds one (no fill, no waiting);
    /// `countingRequest`: the request is counted for the cache's admission (`MemoryCache.admits`).
    func cachedOutcome(for key: TileKey, layer: Layer, countingRequest: Bool = false) -> TileOutcome? {
        guard layer.cachesInMemory,
              let entry = cache.value(for: Self.stamped(key, layer: layer), countingRequest: countingRequest)
        else { return nil }
        // The clock is read only for a layer whose tiles expire.
        if let lifetime = layer.memoryLifetime, !entry.isFresh(lifetime: lifetime, now: LayerDiskTier.now()) { return nil }
        return entry.served
    }

    /// The outcome for `key`: returned at once when it is ready (a hit, a synchronous source),
    /// else nil and `completion` is called once, later, from any thread.
    func outcome(for key: TileKey, layer: Layer, completion: @escaping Completion) -> Result<TileOutcome, TileFailure>? {
        outcome(for: key, layer: layer, noting: { result, _ in completion(result) })?.result
    }

    /// `outcome(for:layer:completion:)`, telling also how the cache took part (hit, miss,
    /// coalesced, bypass), and counting that per layer. A tile of a layer whose tiles expire is
    /// a miss once older than `Layer.memoryLifetime`; its old copy is served stale if the fill fails.
    func outcome(
        for key: TileKey, layer: Layer, noting completion: @escaping NotedCompletion
    ) -> (result: Result<TileOutcome, TileFailure>, cache: TileCacheUse)? {
        let key = Self.stamped(key, layer: layer)
        let counters = metrics[layer.name]
        let inMemory = layer.cachesInMemory
        let fills = inMemory ? cache : uncachedFills
        let lifetime = layer.memoryLifetime
        let lookup = lifetime == nil ? fills.lookupOrJoin(key)
            : fills.lookupOrJoin(key, isFresh: { [now = LayerDiskTier.now()] in $0.isFresh(lifetime: lifetime, now: now) })
        switch lookup {
        case .hit(let entry):
            counters?.hits.increment()
            return (.success(lifetime == nil ? entry.outcome : entry.served), .hit)
        case .joined(let fill):
            counters?.coalesced.increment()
            fill.onCompletion { completion(Self.failure(from: $0.map(\.served), key: key), .coalesced) }
            return nil
        case .mustFill(let token):
            let use = TileCacheUse.notHit(cached: inMemory)
            if inMemory { counters?.misses.increment() }
            // A native tile of an archive the loops read (`Layer.archiveWithoutWaiting`) is kept
            // only if the cache takes it in, as the loops do (`TilePipeline.admits`): one read
            // here because its pages were not in the page cache must not churn the cache either.
            let admitting = inMemory && layer.archiveWithoutWaiting != nil && layer.servesNatively(scale: key.scale)
            let store: @Sendable (Result<TileOutcome, TileFailure>) -> Void = { [fills, cache] result in
                let now = LayerDiskTier.now()
                let fill = result.map { outcome in
                    if admitting, case .tile = outcome, !cache.admits(key, cost: outcome.cost) {
                        return CacheFillResult.doNotStore(CachedOutcome(outcome, now: now))
                    }
                    return CachedOutcome.fill(outcome, now: now, keptInArena: inMemory)
                }
                if inMemory, case .success(.store(_, let cost)) = fill { counters?.storedBytes.increment(by: cost) }
                fills.complete(token, with: fill.mapError { $0 as any Error })
            }
            let expired = token.expired
            let now = fill(key, layer: layer, counters: counters, expired: expired) { result in
                store(result)
                completion(result, use)
            }
            if let now { store(now) }
            return now.map { ($0, use) }
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
            Task(executorPreference: RenderExecutor.shared) { [self] in
                completion(await TileRenderer(pipeline: self, logger: logger, layer: layer).derived(key))
            }
            return nil
        }
        let request = TileRequest(tile: key.tile, variables: key.variables, scale: key.scale)
        counters?.providerCalls.increment()
        switch layer.source {
        case .sync(let provider):
            return Self.syncProviderOutcome(provider, request, key: key, format: layer.format)
        case .async(let provider):
            Task(executorPreference: RenderExecutor.shared) {
                let result = await Result(catching: { () async throws(TileProviderError) in try await provider.requestTile(request) })
                completion(Self.outcome(result, key: key, format: layer.format))
            }
            return nil
        }
    }

    /// The one blocking call of a synchronous provider (files, SQLite, custom code): on the
    /// caller's thread, which must be a Dispatch thread, never the Swift-concurrency pool.
    static func syncProviderOutcome(
        _ provider: any SyncTileProvider, _ request: TileRequest, key: TileKey, format: TileFormat
    ) -> Result<TileOutcome, TileFailure> {
        outcome(Result { () throws(TileProviderError) in try provider.tile(for: request) }, key: key, format: format)
    }

    /// A provider's answer as an outcome: a tile must start with `format`'s magic bytes, and a
    /// gzip-compressed one must decompress (else 502 naming the tile; nothing is cached).
    static func outcome(
        _ result: Result<TileResult, TileProviderError>, key: TileKey, format: TileFormat
    ) -> Result<TileOutcome, TileFailure> {
        switch result {
        case .failure(let error):
            return .failure(TileFailure(key: key, error: error))
        case .success(.tile(let tile)):
            guard format.matches(tile.data) else {
                return .failure(TileFailure(key: key, error: .notFormat(source: "tile \(key)", format: format)))
            }
            let served = ServedTile(body: tile.data, lastModified: tile.lastModified, upstreamCaching: tile.upstreamCaching)
            if served.isCorruptGzip {
                return .failure(TileFailure(key: key, error: .undecodable(source: "tile \(key)", reason: "corrupt gzip")))
            }
            return .success(.tile(served))
        case .success(.noTile):
            return .success(.noTile)
        case .success(.unavailable(let retryAfter)):
            return .success(.unavailable(retryAfter: retryAfter))
        }
    }
}

extension CachedOutcome {
    /// How the cache treats an outcome made at `now`: "not available now" and stale copies are
    /// handed on, never stored.
    /// `keptInArena`: the outcome goes to the memory cache, so a tile's bytes move to the body
    /// arena (a layer without a memory cache only shares the fill with its waiters: no copy).
    static func fill(_ outcome: TileOutcome, now: Int, keptInArena: Bool = true) -> CacheFillResult<CachedOutcome> {
        if case .unavailable = outcome { return .doNotStore(CachedOutcome(outcome, now: now)) }
        guard case .tile(let tile) = outcome else { return .store(CachedOutcome(outcome, now: now), cost: outcome.cost) }
        if tile.staleAge != nil { return .doNotStore(CachedOutcome(outcome, now: now)) }
        // A stored tile's bytes go to the body arena: its hits are sent without a copy.
        let kept = TileOutcome.tile(keptInArena ? tile.keptInArena() : tile)
        return .store(CachedOutcome(kept, now: now), cost: kept.cost)
    }
}
