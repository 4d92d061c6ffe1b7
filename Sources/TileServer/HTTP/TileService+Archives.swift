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
    /// Nil when the workers must answer: the read would wait, the bytes are not a tile of the
    /// layer's format (the ordinary path says what is wrong), or a vector tile (gzip-compressed
    /// ones are answered per client `Accept-Encoding`, on the ordinary path).
    func archiveTileResponseWithoutWaiting(_ request: HTTPRequest, key: TileKey, layer: Layer) -> HTTPResponse? {
        guard let archive = layer.archiveWithoutWaiting, layer.servesNatively(scale: key.scale) else { return nil }
        let response: HTTPResponse
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
            response = fingerprintedAnswer(request, fingerprint, lastModified: lastModified, layer: layer, body: .bytes(bytes))
        case .lent(let lent, let version, let lastModified):
            // Sent from where the bytes lie; hashed (copied) only for a version not seen before.
            let versionKey = ArchiveTileVersion(contents: version, tile: key.tile)
            guard let fingerprint = pipeline.archiveFingerprints.fingerprint(
                      for: versionKey, format: layer.format, lastModified: lastModified, read: { lent.copy() }),
                  fingerprint.byteCount == lent.count
            else { return nil }
            response = fingerprintedAnswer(request, fingerprint, lastModified: lastModified, layer: layer, body: .lent(lent))
        }
        pipeline.metrics[layer.name]?.providerCalls.increment()
        return noted(response, cacheUse: .bypass)
    }
}
