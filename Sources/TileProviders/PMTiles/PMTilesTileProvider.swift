import TileGeometry

/// Tiles from a local PMTiles v3 archive, byte-for-byte as stored (tile compression passed
/// through). Blocking `pread`s: the server calls it on its worker pool.
///
/// At most once per `recheckInterval` one reader checks whether the file was replaced (see
/// `ReopeningFile`); while the file is absent tiles are `.unavailable`.
public final class PMTilesTileProvider: SyncTileProvider {
    /// The archive file.
    public let path: String
    /// How often the read path checks whether the file was replaced.
    public let recheckInterval: Duration
    /// The `retryAfter` seconds of `.unavailable` while the file is absent.
    public let retryAfter: Int
    private let file: ReopeningFile<PMTilesArchive>

    /// Opens `path` and reads its header, root directory and metadata now, so that a missing or
    /// broken archive is a start-up error naming the file (`.fileNotFound`, `.notPMTiles`).
    public init(path: String, recheckInterval: Duration = .seconds(1), retryAfter: Int = 5) throws(TileProviderError) {
        self.path = path
        self.recheckInterval = recheckInterval
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
        guard zoom <= TileCoordinate.maxZoom, let id = PMTilesTileID.id(zoom: zoom, x: x, y: y) else { return .noTile }
        switch file.current() {
        case .missing:
            return .unavailable(retryAfter: retryAfter)
        case .failed(let error):
            throw error
        case .open(let archive):
            do throws(PMTilesFormatError) {
                guard let section = try archive.lookup(id) else { return .noTile }
                return .tile(Tile(data: try archive.bytes(section), lastModified: archive.identity.modifiedSeconds))
            } catch {
                throw .corruptArchive(path: path, tile: "\(zoom)/\(x)/\(y)", reason: error.reason)
            }
        }
    }
}
