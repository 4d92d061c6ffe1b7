import TileGeometry

/// Tiles from a local PMTiles v3 archive, byte-for-byte as stored (tile compression passed
/// through). Blocking `pread`s: the server calls it on its worker pool.
///
/// At most once per `recheckInterval` (and at once after `recheck()`) one reader checks whether
/// the file was replaced (see `ReopeningFile`); while the file is absent tiles are `.unavailable`.
public final class PMTilesTileProvider: VersionedTileProvider {
    /// The archive file.
    public let path: String
    /// The `retryAfter` seconds of `.unavailable` while the file is absent.
    public let retryAfter: Int
    private let file: ReopeningFile<PMTilesArchive>

    /// Opens `path` and reads its header, root directory and metadata now, so that a missing or
    /// broken archive is a start-up error naming the file (`.fileNotFound`, `.notPMTiles`).
    public init(path: String, recheckInterval: Duration = .seconds(1), retryAfter: Int = 5) throws(TileProviderError) {
        self.path = path
        self.retryAfter = retryAfter
        file = try ReopeningFile(path: path, recheckInterval: recheckInterval, identity: \.identity) {
            _ throws(TileProviderError) in try PMTilesArchive(path: path)
        }
    }

    /// The header of the archive last opened successfully.
    public var header: PMTilesHeader { file.lastOpened.header }

    /// Zoom range, bounds, center from the header; name, attribution, description from the JSON metadata.
    public var metadata: MBTilesMetadata { file.lastOpened.metadata }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        try versionedTile(for: TileRequest(x: x, y: y, zoom: zoom)).0
    }

    public func versionedTile(for request: TileRequest) throws(TileProviderError) -> (TileResult, (any TileValidator)?) {
        let (zoom, x, y) = (request.tile.z, request.tile.x, request.tile.y)
        guard zoom <= TileCoordinate.maxZoom, let id = PMTilesTileID.id(zoom: zoom, x: x, y: y) else { return (.noTile, nil) }
        switch file.current() {
        case .missing:
            return (.unavailable(retryAfter: retryAfter), nil)
        case .failed(let error):
            throw error
        case .open(let archive):
            let validator = file.validator(for: archive.identity)
            do throws(PMTilesFormatError) {
                guard let section = try archive.lookup(id) else { return (.noTile, validator) }
                let tile = Tile(data: try archive.bytes(section), lastModified: archive.identity.modifiedSeconds)
                return (.tile(tile), validator)
            } catch {
                throw .corruptArchive(path: path, tile: "\(zoom)/\(x)/\(y)", reason: error.reason)
            }
        }
    }

    public func recheck() { file.recheck() }
}
