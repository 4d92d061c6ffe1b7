import TileHTTP
import TileProviders

extension TileService {
    /// A native tile of an archive layer without a memory cache (an MBTiles file), read on the
    /// event loop when the source can read it without waiting (`WithoutWaitingTileProvider`:
    /// from the page cache, on a connection of the loops' own). Its ETag and encoded answer head
    /// are made once per version of its contents (`TilePipeline.archiveFingerprints`), so a
    /// request costs the read and one copy of the bytes, not a hash and a worker hop; when the
    /// source lends the bytes where they lie (`.lent`), not even that copy: the kernel's, into
    /// the socket, is the only one.
    /// To a head the event loop saw at least `repeatsBeforeReuse` times before lately
    /// (`HTTPRequest.headRepeats`), the unconditional 200 carries `reuse` (tagged to count as
    /// a provider call when given again), its body copied (a lent one ends at once), so the
    /// loop gives it again for `server.cache.reuseSeconds` (`HTTPHeadMemo`, within its budget
    /// for bodies in memory) without a read: a tile asked for over and over (a Zipf
    /// distribution's head) costs what a cached one does, though the layer keeps no tiles;
    /// one asked for twice in a long walk through many (a uniform one) is not copied for it.
    /// A change of the file is seen that much later, beside the read transaction's lifetime;
    /// a clear-cache or reload revokes it at once.
    /// Nil when the workers must answer: the read would wait, the bytes are not a tile of the
    /// layer's format (the ordinary path says what is wrong), or a vector tile (gzip-compressed
    /// ones are answered per client `Accept-Encoding`, on the ordinary path).
    func archiveTileResponseWithoutWaiting(
        _ request: HTTPRequest, key: TileKey, layer: Layer, reuse: HTTPAnswerReuse.Mark?, counters: LayerMetrics?
    ) -> HTTPResponse? {
        guard let archive = layer.archiveWithoutWaiting, layer.servesNatively(scale: key.scale) else { return nil }
        // The mark of an answer made to be given again; nil when it is not.
        let keptMark = request.headRepeats >= Self.repeatsBeforeReuse
            ? counters.flatMap { reuse?.tagged($0.repeatedFileBypass) } : nil
        var response: HTTPResponse
        // The version of the tile's bytes, which names them to the memo that gives the answer again.
        var named: TileFingerprint?
        switch archive.tileWithoutWaiting(for: TileRequest(tile: key.tile, variables: key.variables)) {
        case .mustWait:
            return nil
        case .noTile:
            response = noTileAnswer(request, layer: layer, scale: key.scale)
        case .tile(let bytes, let version, let lastModified):
            let versionKey = ArchiveTileVersion(contents: version, tile: key.tile)
            guard let fingerprint = pipeline.archiveFingerprints.fingerprint(
                      for: versionKey, format: layer.format, lastModified: lastModified, read: { bytes }),
                  fingerprint.byteCount == bytes.count
            else { return nil }
            named = fingerprint
            response = fingerprintedAnswer(request, fingerprint, lastModified: lastModified, layer: layer, body: .bytes(bytes))
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
            response = fingerprintedAnswer(request, fingerprint, lastModified: lastModified, layer: layer, body: body)
        }
        if let keptMark, response.lent == nil, response.preparedHead != nil {
            response.reuse = named.map { keptMark.naming(body: $0) } ?? keptMark
        }
        counters?.providerCalls.increment()
        response.noteTile(.bypass)
        return response
    }

    /// Times a head is seen before its archive tile's answer is copied to be given again: a
    /// tile asked for over and over, not one that a walk through many tiles comes by again.
    static let repeatsBeforeReuse = 3
}
