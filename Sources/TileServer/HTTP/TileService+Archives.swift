import TileHTTP
import TileProviders

extension TileService {
    /// A native tile of an archive layer without a disk tier (an MBTiles file), read on the
    /// event loop when the source can read it without waiting (`WithoutWaitingTileProvider`:
    /// from the page cache, on a connection of the loops' own), after a memory miss. A layer
    /// with a memory cache answers so only a tile the cache would not take in (it would evict
    /// tiles asked for as often: `TilePipeline.admits`), as a tile file is sent from disk; the
    /// workers read and store one it takes, and "no tile". Its ETag and encoded answer head
    /// are made once per version of its contents (`TilePipeline.archiveFingerprints`), so a
    /// request costs the read and one copy of the bytes, not a hash and a worker hop; when the
    /// source lends the bytes where they lie (`.lent`), not even that copy: the kernel's, into
    /// the socket, is the only one.
    /// To a head the event loop saw at least `repeatsBeforeReuse` times before lately
    /// (`HTTPRequest.headRepeats`), the last time less than an answer's lifetime ago
    /// (`HTTPRequest.headAskedLately`), the unconditional 200 carries `reuse` (tagged to count as
    /// a provider call, and a miss where the layer has a memory cache, when given again), its
    /// body copied (a lent one ends at once), so the loop gives it again for
    /// `server.cache.reuseSeconds` (`HTTPHeadMemo`, within its budget for bodies in memory)
    /// without a read: a tile asked for over and over (a Zipf distribution's head) costs what a
    /// cached one does, though no cache keeps it; one asked for twice in a long walk through
    /// many (a uniform one, a Zipf distribution's tail) is not copied for it.
    /// A change of the file is seen that much later, beside the read transaction's lifetime;
    /// a clear-cache or reload revokes it at once.
    /// Nil when the workers must answer: the read would wait, the bytes are not a tile of the
    /// layer's format (the ordinary path says what is wrong), or a vector tile (gzip-compressed
    /// ones are answered per client `Accept-Encoding`, on the ordinary path).
    func archiveTileResponseWithoutWaiting(
        _ request: HTTPRequest, key: TileKey, layer: Layer, cors: CORSPolicy, reuse: HTTPAnswerReuse.Mark?,
        counters: LayerMetrics?
    ) -> HTTPResponse? {
        guard let archive = layer.archiveWithoutWaiting, layer.servesNatively(scale: key.scale) else { return nil }
        let cached = layer.cachesInMemory
        // The mark of an answer made to be given again; nil when it is not: its bytes are copied
        // only for a head asked for over and over, and lately (within an answer's lifetime).
        let keptMark = request.headRepeats >= Self.repeatsBeforeReuse && request.headAskedLately
            ? counters.flatMap { reuse?.tagged($0.repeatedPastTheCache(cached: cached)) } : nil
        var response: HTTPResponse
        // The version of the tile's bytes, which names them to the memo that gives the answer again.
        var named: TileFingerprint?
        let read = archive.tileWithoutWaiting(for: TileRequest(tile: key.tile, variables: key.variables))
        if cached && cacheKeeps(read, key: key, layer: layer) { return nil }
        switch read {
        case .mustWait:
            return nil
        case .noTile:
            response = noTileAnswer(request, layer: layer, scale: key.scale, cors: cors)
        case .tile(let bytes, let version, let lastModified):
            let versionKey = ArchiveTileVersion(contents: version, tile: key.tile)
            guard let fingerprint = pipeline.archiveFingerprints.fingerprint(
                      for: versionKey, format: layer.format, lastModified: lastModified, read: { bytes }),
                  fingerprint.byteCount == bytes.count
            else { return nil }
            named = fingerprint
            response = fingerprintedAnswer(request, fingerprint, lastModified: lastModified, layer: layer, cors: cors,
                                           body: .bytes(bytes))
        case .lent(let lent, let version, let lastModified):
            // Sent from where the bytes lie; hashed (copied) only for a version not seen before.
            let versionKey = ArchiveTileVersion(contents: version, tile: key.tile)
            guard let fingerprint = pipeline.archiveFingerprints.fingerprint(
                      for: versionKey, format: layer.format, lastModified: lastModified, read: { lent.copy() }),
                  fingerprint.byteCount == lent.count
            else { return nil }
            named = fingerprint
            var body = FingerprintedBody.lent(lent)
            if keptMark != nil, !HTTPConditional.isConditional(request.headers) {
                // To be given again: its own bytes, not the file's pages (held only while sent).
                let copied = lent.copy()
                lent.end()
                guard let copied else { return nil }
                body = .bytes(copied)
            }
            response = fingerprintedAnswer(request, fingerprint, lastModified: lastModified, layer: layer, cors: cors,
                                           body: body)
        }
        if let keptMark, response.lent == nil, response.preparedHead != nil {
            response.reuse = named.map { keptMark.naming(body: $0) } ?? keptMark
        }
        counters?.countPastTheCache(cached: cached)
        response.noteTile(.notHit(cached: cached))
        return response
    }

    /// Whether the memory cache keeps what `read` found, for the workers to read and store:
    /// "no tile" (cheap to keep), or a tile the cache takes in (`TilePipeline.admits`), whose
    /// lent bytes are let go at once.
    private func cacheKeeps(_ read: TileWithoutWaiting, key: TileKey, layer: Layer) -> Bool {
        switch read {
        case .mustWait: return false
        case .noTile: return true
        case .tile(let bytes, _, _): return pipeline.admits(key, layer: layer, byteCount: bytes.count)
        case .lent(let lent, _, _):
            guard pipeline.admits(key, layer: layer, byteCount: lent.count) else { return false }
            lent.end()
            return true
        }
    }

    /// Times a head is seen before its archive tile's answer is copied to be given again: a
    /// tile asked for over and over, not one that a walk through many tiles comes by again.
    static let repeatsBeforeReuse = 3
}
