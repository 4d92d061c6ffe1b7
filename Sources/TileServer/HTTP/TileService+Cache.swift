import Dispatch
import TileCache
import TileGeometry
import TileProviders

extension TileService {
    /// The outcome for one tile of `layer` through the memory and disk tiers, as a tile request
    /// would get it (the seeder and `tilelayer tile` use it; no HTTP).
    public func outcome(
        layer: Layer, tile: TileCoordinate, scale: Int = 1, variables: [String: String] = [:]
    ) async -> Result<TileOutcome, TileFailure> {
        await pipeline.outcome(for: TileKey(layer: layer.name, tile: tile, scale: scale, variables: variables), layer: layer).result
    }

    /// Drops the cached tiles of the layer called `layer` for which `matches` holds (all when
    /// nil), and those of the composites drawn from it: disk tier files, then memory entries. Returns the number of disk files
    /// removed (nil: the whole folder went), or the disk error (memory is cleared regardless).
    /// Runs the file I/O on a blocking lane (`BlockingLanes`).
    public func clearCache(
        layer: String, where matches: (@Sendable (TileKey) -> Bool)? = nil
    ) async -> Result<Int?, CacheError> {
        let state = self.state
        let found = state.layers[layer]
        return await withCheckedContinuation { continuation in
            BlockingLanes.run { [self] in
                // A layer this server does not serve has no answers to revoke.
                continuation.resume(returning: found.map { core.clear($0, where: matches, in: state) }
                    ?? pipeline.clear(layer: layer, where: matches))
            }
        }
    }

    /// Suspends until at most `limit` disk-tier writes are queued (0: all on disk). A seeder
    /// calls it as back-pressure and before it exits.
    public func waitForCacheWrites(below limit: Int = 0) async {
        await pipeline.waitForDiskWrites(below: limit)
        if limit == 0 { await pipeline.waitForSharedWrites() }
    }
}

extension TileService {
    /// Deletes the disk-tier files of the layer `settings` configure (those for which `matches`
    /// holds; all when nil) without building any layer: an offline clear is not blocked by
    /// another layer whose source cannot be opened. Blocking file I/O; nil when the layer has
    /// no `cache.disk`.
    public static func clearDiskCache(
        of settings: LayerSettings, where matches: (@Sendable (TileKey) -> Bool)? = nil
    ) -> Result<Int?, CacheError>? {
        guard let folder = settings.cache.disk else { return nil }
        return LayerDiskTier(folder: folder, layer: settings.name).clear(where: matches)
    }
}
