import Dispatch
import Logging
import TileCache
import TileProviders

/// Produces tile outcomes: from the memory cache when it can, else from the layer's source
/// (native tiles) or the renderer (derived tiles), with concurrent misses coalesced into one
/// provider call. Errors and "not available now" are never stored.
final class TilePipeline: Sendable {
    typealias Completion = @Sendable (Result<TileOutcome, TileFailure>) -> Void

    let cache: MemoryCache<TileKey, TileOutcome>
    let logger: Logger

    init(cache: MemoryCache<TileKey, TileOutcome>, logger: Logger) {
        self.cache = cache
        self.logger = logger
    }

    /// The outcome for `key`: returned at once when it is ready (a hit, a synchronous source),
    /// else nil and `completion` is called once, later, from any thread.
    func outcome(for key: TileKey, layer: Layer, completion: @escaping Completion) -> Result<TileOutcome, TileFailure>? {
        guard layer.settings.cache.memory ?? true else { return produce(key, layer: layer, completion: completion) }
        switch cache.lookupOrJoin(key) {
        case .hit(let outcome):
            return .success(outcome)
        case .joined(let fill):
            fill.onCompletion { completion(Self.failure(from: $0, key: key)) }
            return nil
        case .mustFill(let token):
            let store: @Sendable (Result<TileOutcome, TileFailure>) -> Void = { [cache] result in
                cache.complete(token, with: result.map(\.cacheFill).mapError { $0 as any Error })
            }
            let now = produce(key, layer: layer) { result in
                store(result)
                completion(result)
            }
            if let now { store(now) }
            return now
        }
    }

    /// The outcome for `key`, awaited (used by renderers for the tiles they are made from).
    /// The lookup runs on a Dispatch queue: a synchronous source may block on file I/O there,
    /// never on the Swift-concurrency pool.
    func outcome(for key: TileKey, layer: Layer) async -> Result<TileOutcome, TileFailure> {
        await withCheckedContinuation { continuation in
            DispatchQueue.global().async { [self] in
                if let now = outcome(for: key, layer: layer, completion: { continuation.resume(returning: $0) }) {
                    continuation.resume(returning: now)
                }
            }
        }
    }

    private static func failure(from result: Result<TileOutcome, any Error>, key: TileKey) -> Result<TileOutcome, TileFailure> {
        result.mapError { error in
            (error as? TileFailure) ?? TileFailure(key: key, error: .invalidConfiguration("tile fill failed: \(error)"))
        }
    }

    /// Makes the outcome without the cache: the source's own tile, or a derived one.
    private func produce(_ key: TileKey, layer: Layer, completion: @escaping Completion) -> Result<TileOutcome, TileFailure>? {
        let native = (key.scale == 1) == (layer.settings.tileSize == 256)
        guard native else {
            Task { completion(await TileRenderer(pipeline: self, logger: logger).derived(key, layer: layer)) }
            return nil
        }
        let request = TileRequest(tile: key.tile, variables: key.variables)
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
    /// How the cache treats the outcome: "not available now" is handed on, never stored.
    var cacheFill: CacheFillResult<TileOutcome> {
        if case .unavailable = self { return .doNotStore(self) }
        return .store(self, cost: cost)
    }
}
