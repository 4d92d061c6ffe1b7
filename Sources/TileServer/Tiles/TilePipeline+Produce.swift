import Hashing
import TileHTTP
import TileProviders

extension TilePipeline {
    /// Makes the outcome without the caches: the source's own tile, or a derived one.
    func produce(_ key: TileKey, layer: Layer, counters: LayerMetrics?, completion: @escaping Completion) -> TileFill? {
        guard layer.servesNatively(scale: key.scale) else {
            counters?.renders.increment()
            Task(executorPreference: RenderExecutor.shared) { [self] in
                completion(await TileRenderer(pipeline: self, logger: logger, layer: layer).derived(key))
            }
            return nil
        }
        let request = TileRequest(tile: key.tile, variables: key.variables, scale: key.scale)
        // A composite's source draws its members: a render, not a call to a source of tiles.
        if layer.members.isEmpty { counters?.providerCalls.increment() } else { counters?.renders.increment() }
        switch layer.source {
        case .sync(let provider):
            return syncProviderFill(provider, request, key: key, format: layer.format, counters: counters)
        case .async(let provider):
            Task(executorPreference: RenderExecutor.shared) { [self] in
                let versioned = provider as? any AsyncVersionedTileProvider
                let result = await Result(catching: { () async throws(TileProviderError) in
                    if let versioned { return try await versioned.versionedTile(request) }
                    return (try await provider.requestTile(request), nil)
                })
                completion(fill(result, key: key, format: layer.format, counters: counters))
            }
            return nil
        }
    }

    /// The one blocking call of a synchronous provider (files, SQLite, custom code): on the
    /// caller's thread, which must be a Dispatch thread, never the Swift-concurrency pool.
    func syncProviderFill(
        _ provider: any SyncTileProvider, _ request: TileRequest, key: TileKey, format: TileFormat, counters: LayerMetrics?
    ) -> TileFill {
        fill(Result { () throws(TileProviderError) in
            if let versioned = provider as? any VersionedTileProvider { return try versioned.versionedTile(for: request) }
            return (try provider.tile(for: request), nil)
        }, key: key, format: format, counters: counters)
    }

    /// A provider's answer as a fill: a tile must be one whole tile of `format` (its structure
    /// walked: `TileFormat.defect(in:)`; else 502 naming the tile and the defect, nothing
    /// cached, counted in `counters`; the walk made once per content, `CheckedTiles`); a file
    /// that kept changing while read, is not a whole tile while a process has it open for
    /// writing, or could not be opened for want of file descriptors, is "not available now".
    func fill(
        _ result: Result<(TileResult, (any TileValidator)?), TileProviderError>, key: TileKey, format: TileFormat,
        counters: LayerMetrics?
    ) -> TileFill {
        switch result {
        case .failure(.changing), .failure(.outOfDescriptors):
            return TileFill(result: .success(.unavailable(retryAfter: 1)), validator: nil)
        case .failure(let error):
            return TileFill(result: .failure(TileFailure(key: key, error: error)), validator: nil)
        case .success((.tile(let tile), let validator)):
            let hash = ContentHash.xxh64(tile.data)
            if !checkedTiles.contains(hash: hash, count: tile.data.count, format: format) {
                if let failure = Self.failure(of: tile.data, key: key, format: format) {
                    // Not a whole tile, from a file some process is writing: a write under way.
                    if (validator as? FileVersion)?.isBeingWritten() == true {
                        return TileFill(result: .success(.unavailable(retryAfter: 1)), validator: nil)
                    }
                    if case .damaged = failure.error { counters?.rejectedDamaged.increment() } else { counters?.rejectedNotFormat.increment() }
                    return TileFill(result: .failure(failure), validator: nil)
                }
                checkedTiles.insert(hash: hash, count: tile.data.count, format: format)
            }
            let served = ServedTile(body: tile.data, contentHash: hash, lastModified: tile.lastModified,
                                    upstreamCaching: tile.upstreamCaching)
            return TileFill(result: .success(.tile(served)), validator: validator)
        case .success((.noTile, let validator)):
            return TileFill(result: .success(.noTile), validator: validator)
        case .success((.unavailable(let retryAfter), _)):
            return TileFill(result: .success(.unavailable(retryAfter: retryAfter)), validator: nil)
        }
    }

    /// Why `bytes` cannot be served as `key`'s tile of `format`, nil when they can: not of the
    /// format at all (`notFormat`), or not a whole tile of it (`damaged`).
    static func failure(of bytes: [UInt8], key: TileKey, format: TileFormat) -> TileFailure? {
        guard format.matches(bytes) else { return TileFailure(key: key, error: .notFormat(source: "tile \(key)", format: format)) }
        guard let defect = format.defect(in: bytes) else { return nil }
        return TileFailure(key: key, error: .damaged(source: "tile \(key)", reason: defect.reason))
    }
}
