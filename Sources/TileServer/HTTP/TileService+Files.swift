import TileHTTP
import TileProviders
import Sockets

extension TileService {
    /// A native tile of a layer whose tiles are files, sent straight from its file with
    /// `sendfile` (no read into memory, no copy into the socket); the file stays open for a
    /// moment (`OpenTileFiles`) for the next request of that tile. A layer without a memory
    /// cache always sends this way. One with a memory cache answers a hit from the cache, stores
    /// a miss that fits (the pipeline then reads it), and sends a miss from its file when storing
    /// it would evict other tiles, unless it is asked for far more often than each tile it would
    /// evict (`MemoryCache.admits`; the event loop counts each request once): a
    /// tile the page cache already holds is not worth evicting for, a cache smaller than the
    /// pyramid would otherwise churn on every request, and a hot tile still displaces cold ones.
    /// Nil when the pipeline should answer, or when the file cannot be opened or is not a whole
    /// PNG: the ordinary path then answers, and says what is wrong.
    ///
    /// With `mayBlock` false (on an event loop, after a memory miss) it waits on no disk: it
    /// answers only from a file kept open or opened from the kernel's caches alone
    /// (`tileFileWithoutWaiting`) whose version it knows or can read from the page cache alone
    /// to hash (`fingerprintWithoutWaiting`), and sends it only while the page cache holds all
    /// of it, or held it less than the layer's `cache.residencySeconds` ago
    /// (`TileFile.isCachedWhole(at:trusting:)`; when the kernel will not say, its bytes are read
    /// without waiting and sent instead). Then its prepared 200 carries `reuse`, when given,
    /// so the loop may send the file again to the same request head (`HTTPHeadMemo`) for a
    /// moment, its descriptor kept open by the answer meanwhile: as `OpenTileFiles` keeps it,
    /// a replaced file is then served a moment longer. `cors`: the policy of the state the
    /// request was read on; `counters`: the layer's.
    func fileTileResponse(
        _ request: HTTPRequest, key: TileKey, layer: Layer, mayBlock: Bool, cors: CORSPolicy, counters: LayerMetrics?,
        reuse: HTTPAnswerReuse.Mark? = nil
    ) -> HTTPResponse? {
        // A layer has open files only with a file source, which is called where a file is opened
        // (`layer.fileSource?.…`): looked at here, its existential would be copied for every
        // request, a kept file's too.
        guard let openFiles = layer.openFiles, layer.servesNatively(scale: key.scale) else { return nil }
        assert(layer.fileSource != nil, "a layer keeps open files only of its file source")
        // On an event loop the caller looked in memory already (`tileResponseWithoutWaiting`).
        if mayBlock, let cached = pipeline.memoryHit(for: key, layer: layer) {
            return hitAnswer(request, cached, layer: layer, scale: key.scale, cors: cors)
        }
        let opened: TileFile?
        // The fingerprint a kept file carries, when an answer noted it.
        var known: TileFingerprint?
        // On the loop: the time taken for the open file's table and the page cache's answer.
        let now = mayBlock ? 0 : Monotonic.nanoseconds
        if !mayBlock {
            // A file kept open, or one whose whole path is in the kernel's caches (no disk
            // wait): else the workers open it.
            if let kept = openFiles.kept(for: key, now: now) {
                opened = kept.file
                known = kept.fingerprint
            } else if let cached = layer.fileSource?.tileFileWithoutWaiting(
                for: TileRequest(tile: key.tile, variables: key.variables)) {
                // Past its validity a kept file still the same version stays, with its fingerprint.
                let kept = openFiles.keep(cached, for: key, now: now)
                opened = kept.file
                known = kept.fingerprint
            } else {
                return nil
            }
        } else {
            do {
                opened = try openFiles.file(for: key) { () throws(TileProviderError) in
                    try layer.fileSource?.tileFile(for: TileRequest(tile: key.tile, variables: key.variables))
                }
            } catch {
                return nil
            }
        }
        if layer.cachesInMemory {
            // "No tile" is cheap to keep; a tile admitted is kept: the pipeline does both.
            guard let file = opened, !pipeline.admits(key, layer: layer, byteCount: file.size) else { return nil }
        }
        var response: HTTPResponse
        if let file = opened {
            // A version not seen before is read and hashed once: on the loop only from the page
            // cache. The kept file carries it after that.
            guard let fingerprint = known
                    ?? (mayBlock ? pipeline.fileFingerprints.fingerprint(of: file, format: layer.format)
                                 : pipeline.fileFingerprints.fingerprintWithoutWaiting(of: file, format: layer.format))
            else { return nil }
            if known == nil { openFiles.note(fingerprint, of: file, for: key) }
            var body = FingerprintedBody.file(HTTPFileBody(descriptor: file.descriptor, count: file.size, owner: file))
            if !mayBlock {
                // The loop sends a file only if the page cache holds all of it (or did within the
                // layer's residency): a sendfile of pages that are not there waits on the disk.
                // When the kernel will not tell (a file this process neither owns nor may write),
                // its bytes are read without waiting and sent instead.
                switch file.isCachedWhole(at: now, trusting: openFiles.residency) {
                case true?:
                    break
                case false?:
                    return nil
                case nil:
                    guard let bytes = file.readAllWithoutWaiting() else { return nil }
                    body = .bytes(bytes)
                }
            }
            let sendsFile = if case .file = body { true } else { false }
            response = fingerprintedAnswer(request, fingerprint, lastModified: file.modified, layer: layer, cors: cors,
                                           body: body)
            // Only the prepared (unconditional) 200 sent from its file.
            if sendsFile, let reuse, let counters, response.preparedHead != nil {
                response.reuse = reuse.tagged(counters.repeatedPastTheCache(cached: layer.cachesInMemory))
            }
        } else {
            response = noTileAnswer(request, layer: layer, scale: key.scale, cors: cors)
        }
        counters?.countPastTheCache(cached: layer.cachesInMemory)
        response.noteTile(.notHit(cached: layer.cachesInMemory))
        return response
    }
}
