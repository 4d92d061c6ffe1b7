import TileHTTP
import TileProviders

extension TileService {
    /// A native tile of a layer whose tiles are files and which keeps no copy of them, sent
    /// straight from its file with `sendfile` (no read into memory, no copy into the socket);
    /// the file stays open for a moment (`OpenTileFiles`) for the next request of that tile.
    /// Nil when that does not apply, or when the file cannot be opened or is not a whole PNG:
    /// the ordinary path then answers, and says what is wrong.
    func fileTileResponse(_ request: HTTPRequest, key: TileKey, layer: Layer) -> HTTPResponse? {
        guard let files = layer.directFiles, let openFiles = layer.openFiles, layer.servesNatively(scale: key.scale)
        else { return nil }
        let opened: TileFile?
        do {
            opened = try openFiles.file(for: key) { () throws(TileProviderError) in
                try files.tileFile(for: TileRequest(tile: key.tile, variables: key.variables))
            }
        } catch {
            return nil
        }
        var response: HTTPResponse
        if let file = opened {
            guard let fingerprint = pipeline.fileFingerprints.fingerprint(of: file) else { return nil }
            response = tileHead(request, etag: fingerprint.etag, lastModified: file.modified,
                                lastModifiedText: fingerprint.lastModifiedText, staleAge: nil, layer: layer)
            if response.status == .ok {
                response.file = HTTPFileBody(descriptor: file.descriptor, count: file.size, owner: file)
            }
        } else {
            response = noTileAnswer(request, layer: layer, scale: key.scale)
        }
        pipeline.metrics[layer.name]?.providerCalls.increment()
        response.note = TileCacheUse.bypass.rawValue
        response.route = MetricsRoute.tile
        return response
    }
}
