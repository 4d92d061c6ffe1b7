import Hashing
import Sockets
import TileCache
import TileHTTP
import TileProviders

extension TileEndpoint {
    /// A native tile of a layer whose tiles are files (`Layer.fileSource`), on the event loop:
    /// a memory hit; else the file, opened and read only from the kernel's caches (no disk
    /// wait), stored when the memory cache takes it in (`TilePipeline.admits`: a tile the page
    /// cache holds is not worth evicting others for) and sent otherwise: with `sendfile` when the
    /// page cache holds all of a version whose ETag is known, from its bytes when they were read
    /// to hash them, or when the file is settling (`FileIdentity.isSettling`: changed a moment
    /// ago, it may be written in place again; bytes read whole and checked against the version
    /// are one whole version, where a `sendfile` could send a mix). What would wait goes to a
    /// worker, with the file opened here; nil then, and `completion` later.
    func fileTileAnswer(
        _ plan: TilePlan, files: any FileTileProvider, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        if plan.layer.cachesInMemory {
            switch pipeline.cachedEntry(plan.key, layer: plan.layer) {
            case .fresh(let entry):
                plan.counters?.hits.increment()
                return answer(plan, entry.outcome, cacheUse: .hit)
            case .due(let entry):
                // Checked against its file by the pipeline's fill, on a worker.
                return onWorkers(plan, completion: completion, held: entry) { [self] deliver in
                    pipelineAnswer(plan, onLoop: false, completion: deliver)
                }
            case .expired, .missing:
                break
            }
        }
        let request = TileRequest(tile: plan.key.tile, variables: plan.key.variables)
        let readAt = Monotonic.nanoseconds
        switch files.tileFileWithoutWaiting(for: request) {
        case .missing:
            return missingFileTile(plan, path: files.path(for: request), files: files, readAt: readAt)
        case .mustWait:
            return onWorkers(plan, completion: completion) { [self] _ in
                fileTileAnswerWaiting(plan, files: files, found: nil, readAt: readAt)
            }
        case .opened(let file):
            if let now = fileTileWithoutWaiting(plan, file, files: files, readAt: readAt) { return now }
            return onWorkers(plan, completion: completion) { [self] _ in
                fileTileAnswerWaiting(plan, files: files, found: file, readAt: readAt)
            }
        }
    }

    /// The answer for `file` when it needs no wait; nil when a worker must make it.
    private func fileTileWithoutWaiting(_ plan: TilePlan, _ file: TileFile, files: any FileTileProvider, readAt: UInt64) -> HTTPResponse? {
        let admitted = plan.layer.cachesInMemory && pipeline.admits(plan.key, byteCount: file.size)
        let settling = file.identity.isSettling(at: LayerDiskTier.now())
        if !admitted, !settling, let known = pipeline.fileFingerprints.known(file.identity) {
            switch file.isCachedWhole() {
            case true?:
                let region = HTTPFileRegion(descriptor: file.descriptor, count: file.size, owner: file)
                return sentPastTheCache(plan, known, lastModified: file.modified, body: .file(region))
            case false?:
                return nil
            case nil:
                break  // the kernel will not tell: read without waiting instead
            }
        }
        guard let bytes = file.readVersionWithoutWaiting(settling: settling) else { return nil }
        let version = FileVersion(path: file.path, identity: file.identity, local: files.opensWithoutWaiting)
        return fileTile(plan, bytes: bytes, version: version, admitted: admitted, readAt: readAt)
    }

    /// The answer for a tile file that must be opened or read on a worker: read whole as one
    /// version (`TileFile.readVersion`), stored when the memory cache takes it in, else sent
    /// from its bytes; a file that is not a tile of the layer's format is a 502 naming it, one
    /// that kept changing while read a 503. `readAt`: when the request looked for the file.
    func fileTileAnswerWaiting(_ plan: TilePlan, files: any FileTileProvider, found: TileFile?, readAt: UInt64) -> HTTPResponse {
        let request = TileRequest(tile: plan.key.tile, variables: plan.key.variables)
        let read: Result<(TileResult, (any TileValidator)?), TileProviderError>
        do throws(TileProviderError) {
            let opened = if let found { found } else { try files.tileFile(for: request) }
            guard let file = opened else {
                return missingFileTile(plan, path: files.path(for: request), files: files, readAt: readAt)
            }
            let (bytes, identity) = try file.readVersion(settling: file.identity.isSettling(at: LayerDiskTier.now()))
            let version = FileVersion(path: file.path, identity: identity, local: files.opensWithoutWaiting)
            let admitted = plan.layer.cachesInMemory && pipeline.admits(plan.key, byteCount: bytes.count)
            if let answer = fileTile(plan, bytes: bytes, version: version, admitted: admitted, readAt: readAt) { return answer }
            read = .success((.tile(Tile(data: bytes, lastModified: identity.modifiedSeconds)), version))
        } catch {
            read = .failure(error)
        }
        // Not a tile, or a failure: the pipeline's checks say what is wrong.
        plan.counters?.countPastTheCache(cached: plan.layer.cachesInMemory)
        let fill = pipeline.fill(read, key: plan.key, format: plan.layer.format, counters: plan.counters)
        return answer(plan, fill.result, cacheUse: .notHit(cached: plan.layer.cachesInMemory))
    }

    /// The answer for `bytes`, the whole of `version` of the tile's file: stored in the memory
    /// cache when `admitted`, else sent as they are under the version's fingerprint; nil when
    /// they are not a tile of the layer's format. `readAt`: when the file was looked for.
    private func fileTile(_ plan: TilePlan, bytes: [UInt8], version: FileVersion, admitted: Bool, readAt: UInt64) -> HTTPResponse? {
        guard let identity = version.identity else { return nil }
        guard admitted else {
            guard let fingerprint = pipeline.fileFingerprints.fingerprint(of: bytes, version: identity, format: plan.layer.format,
                                                                          checked: pipeline.checkedTiles)
            else { return nil }
            return sentPastTheCache(plan, fingerprint, lastModified: identity.modifiedSeconds, body: .bytes(bytes))
        }
        let hash = ContentHash.xxh64(bytes)
        guard pipeline.checkedTiles.isWholeTile(bytes, hash: hash, format: plan.layer.format) else { return nil }
        plan.counters?.countPastTheCache(cached: true)
        let tile = ServedTile(body: bytes, contentHash: hash, lastModified: identity.modifiedSeconds)
        let entry = pipeline.store(TileFill(result: .success(.tile(tile)), validator: version, readAt: readAt),
                                   for: plan.key, layer: plan.layer)
        return answer(plan, entry?.outcome ?? .tile(tile), cacheUse: .notHit(cached: true))
    }

    /// A tile file's version sent past the memory cache, counted as a provider call (and a miss
    /// for a layer with a memory cache).
    private func sentPastTheCache(_ plan: TilePlan, _ fingerprint: TileFingerprint, lastModified: Int, body: HTTPBody) -> HTTPResponse {
        let cached = plan.layer.cachesInMemory
        plan.counters?.countPastTheCache(cached: cached)
        return noted(fingerprintedAnswer(plan.request, fingerprint, lastModified: lastModified, layer: plan.layer,
                                         cors: plan.cors, body: body),
                     cacheUse: .notHit(cached: cached))
    }

    /// "No tile" for a file that is not there, kept in memory (checked against the path's
    /// absence like a tile against its file) by a layer with a memory cache.
    private func missingFileTile(_ plan: TilePlan, path: String, files: any FileTileProvider, readAt: UInt64) -> HTTPResponse {
        let cached = plan.layer.cachesInMemory
        plan.counters?.countPastTheCache(cached: cached)
        if cached {
            let absent = FileVersion(path: path, identity: nil, local: files.opensWithoutWaiting)
            pipeline.store(TileFill(result: .success(.noTile), validator: absent, readAt: readAt), for: plan.key, layer: plan.layer)
        }
        return answer(plan, .noTile, cacheUse: .notHit(cached: cached))
    }
}
