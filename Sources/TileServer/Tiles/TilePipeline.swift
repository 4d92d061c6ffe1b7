import Dispatch
import Logging
import Sockets
import Synchronization
import TileCache
import TilePNG
import TileProviders

/// Produces tile outcomes: from the memory cache when it can, else from the layer's source
/// (native tiles) or the renderer (derived tiles), with concurrent misses coalesced into one
/// provider call whether the layer keeps its tiles in memory or not. Keys are stamped with the
/// layer's generation, so a rebuilt or cleared layer (or composite member) never meets an older
/// answer; an entry read from files is checked against them again once the layer's
/// `cache.revalidateSeconds` have passed (`CachedOutcome.isDue`). Errors and "not available
/// now" are never stored.
final class TilePipeline: Sendable {
    typealias Completion = @Sendable (TileFill) -> Void

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
    let fileFingerprints = TileFingerprints()
    /// Contents found whole tiles, walked once (`CheckedTiles`).
    let checkedTiles = CheckedTiles()

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

    /// Whether the memory cache would take in a native tile of `byteCount` bytes for `key` (stamped)
    /// (`MemoryCache.admits`): a tile file the caller can send without storing is stored only then.
    func admits(_ key: TileKey, byteCount: Int) -> Bool {
        cache.admits(key, cost: byteCount + TileOutcome.entryOverhead)
    }

    /// The memory cache's fresh entry for `key` (stamped) of `layer`, or its fill under way, or
    /// the duty to fill it; `countingRequest` counts the request for the cache's admission
    /// (`MemoryCache.admits`). An entry past the layer's `memoryLifetime`, or due for a check of
    /// its source (`CachedOutcome.isDue`), is a miss: it goes to the filler as `expired`.
    func lookUp(_ key: TileKey, layer: Layer, countingRequest: Bool = false) -> CacheLookup<TileKey, CachedOutcome> {
        let fills = layer.cachesInMemory ? cache : uncachedFills
        let (lifetime, interval) = (layer.memoryLifetime, layer.revalidateInterval)
        if lifetime == nil && interval == nil { return fills.lookupOrJoin(key, countingRequest: countingRequest) }
        let wall = lifetime == nil ? 0 : LayerDiskTier.now()
        let (now, since) = interval == nil ? (0, 0) : (Monotonic.nanoseconds, layer.recheckedSince)
        return fills.lookupOrJoin(key, countingRequest: countingRequest) { entry in
            entry.isFresh(lifetime: lifetime, now: wall)
                && !(interval.map { entry.isDue(at: now, interval: $0, since: since) } ?? false)
        }
    }

    /// What the memory cache holds for `key` (stamped) of `layer`, a layer whose native tiles
    /// are read straight from their files (no fill to join: the page cache shares their reads);
    /// the request is counted for the cache's admission.
    func cachedEntry(_ key: TileKey, layer: Layer) -> CachedEntry {
        guard let entry = cache.value(for: key, countingRequest: true) else { return .missing }
        var found = CachedEntry.fresh(entry)
        if let lifetime = layer.memoryLifetime, !entry.isFresh(lifetime: lifetime, now: LayerDiskTier.now()) {
            found = .expired
        } else if let interval = layer.revalidateInterval,
                  entry.isDue(at: Monotonic.nanoseconds, interval: interval, since: layer.recheckedSince) {
            found = entry.revalidatedWithoutWaiting() ?? .due(entry)
        }
        // A changed entry goes now: the read that follows may not keep the new version.
        if case .expired = found { cache.removeValue(for: key) }
        return found
    }

    /// What `cachedEntry` found.
    enum CachedEntry {
        case fresh(CachedOutcome)
        /// An entry to check against its source that cannot be checked without waiting: the
        /// pipeline's fill checks it on a worker (or, when the server sheds load, serves it).
        case due(CachedOutcome)
        /// Past its lifetime, or found changed: as a miss.
        case expired
        case missing
    }

    /// Stores `fill` for `key` (stamped) of `layer`, a tile read straight from its file; the entry
    /// stored, nil when the cache does not keep it.
    @discardableResult
    func store(_ fill: TileFill, for key: TileKey, layer: Layer) -> CachedOutcome? {
        guard case .success(.store(let entry, let cost)) = fill.entry(now: LayerDiskTier.now(), keptInArena: true) else {
            return nil
        }
        cache.insert(entry, for: key, cost: cost)
        metrics[layer.name]?.storedBytes.increment(by: cost)
        return entry
    }

    /// Fills `token` (from `lookUp`): the memory entry it found due is checked against its
    /// source first and kept when unchanged; else the tiers and the source produce the outcome,
    /// which the cache stores (unless it is "not available now" or a stale copy). Returns the
    /// fill at once when it is ready (a synchronous source: call it on a worker), else nil and
    /// `completion` later, from any thread.
    func fill(
        _ token: CacheFillToken<TileKey, CachedOutcome>, layer: Layer, counters: LayerMetrics?,
        completion: @escaping Completion
    ) -> TileFill? {
        let key = token.key
        // An entry due for a check of what it was read from (not one past its lifetime): kept,
        // and served, while that is unchanged (`revalidatingWithoutWaiting` tried first, on the loop).
        if let entry = token.expired, let validator = entry.validator,
           entry.isFresh(lifetime: layer.memoryLifetime, now: LayerDiskTier.now()), validator.isCurrent() {
            entry.markValidated(at: Monotonic.nanoseconds)
            counters?.hits.increment()
            token.complete(with: .success(.store(entry, cost: entry.cost)))
            return TileFill(result: .success(entry.outcome), validator: validator, isRevalidatedEntry: true)
        }
        if layer.cachesInMemory { counters?.misses.increment() }
        let store: @Sendable (TileFill) -> Void = { [cache] fill in
            let entry = fill.entry(now: LayerDiskTier.now(), keptInArena: layer.cachesInMemory)
            if layer.cachesInMemory, case .success(.store(_, let cost)) = entry { counters?.storedBytes.increment(by: cost) }
            cache.complete(token, with: entry.mapError { $0 as any Error })
        }
        let now = produceThroughTiers(key, layer: layer, counters: counters, expired: token.expired) { fill in
            store(fill)
            completion(fill)
        }
        if let now { store(now) }
        return now
    }

    /// The fill of a key whose lookup joined another's: its outcome when that fill ends.
    static func joined(_ fill: PendingCacheFill<CachedOutcome>, key: TileKey, completion: @escaping Completion) {
        fill.onCompletion { result in
            switch result {
            case .success(let entry): completion(TileFill(result: .success(entry.outcome), validator: entry.validator))
            case .failure(let error): completion(TileFill(result: .failure(failure(from: error, key: key)), validator: nil))
            }
        }
    }

    /// The outcome for `key` (stamped here) of `layer`, awaited: renderers (for the tiles they
    /// are made from), the seeder, `tilelayer tile`. The lookup runs on the workers: a
    /// synchronous source may block on file I/O there, never on the Swift-concurrency pool or
    /// an event loop. A full worker queue is "not available now".
    func outcome(for key: TileKey, layer: Layer) async -> TileFill {
        let key = Self.stamped(key, layer: layer)
        return await withCheckedContinuation { continuation in
            let queued = workers.submit { [self] in
                let counters = metrics[layer.name]
                switch lookUp(key, layer: layer) {
                case .hit(let entry):
                    counters?.hits.increment()
                    continuation.resume(returning: TileFill(result: .success(entry.outcome), validator: entry.validator))
                case .joined(let fill):
                    counters?.coalesced.increment()
                    Self.joined(fill, key: key) { continuation.resume(returning: $0) }
                case .mustFill(let token):
                    if let now = fill(token, layer: layer, counters: counters, completion: { continuation.resume(returning: $0) }) {
                        continuation.resume(returning: now)
                    }
                }
            }
            if !queued { continuation.resume(returning: TileFill(result: .success(.unavailable(retryAfter: 1)), validator: nil)) }
        }
    }

    static func failure(from error: any Error, key: TileKey) -> TileFailure {
        (error as? TileFailure) ?? TileFailure(key: key, error: .invalidConfiguration("tile fill failed: \(error)"))
    }

    /// On the loop, a fill whose token holds an entry due for a check: checked without waiting
    /// where its validator can tell (a file's identity from the kernel's caches, an archive's
    /// last check), and kept (the fill ends with it) when unchanged; nil when the check must
    /// wait, or the entry changed and the fill goes on.
    func revalidatingWithoutWaiting(_ token: CacheFillToken<TileKey, CachedOutcome>, layer: Layer) -> CachedOutcome? {
        guard let entry = token.expired, entry.isFresh(lifetime: layer.memoryLifetime, now: LayerDiskTier.now()),
              case .fresh(let kept)? = entry.revalidatedWithoutWaiting()
        else { return nil }
        token.complete(with: .success(.store(kept, cost: kept.cost)))
        return kept
    }
}

extension CachedOutcome {
    /// The entry checked against its source without waiting: `.fresh` (and noted validated)
    /// when unchanged, `.expired` when changed, nil when the check must wait.
    func revalidatedWithoutWaiting() -> TilePipeline.CachedEntry? {
        switch validator?.isCurrentWithoutWaiting() {
        case true?:
            markValidated(at: Monotonic.nanoseconds)
            return .fresh(self)
        case false?: return .expired
        case nil: return nil
        }
    }
}
