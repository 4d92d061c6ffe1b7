import TileGeometry

/// Tiles from an MBTiles 1.3 file (SQLite, read-only), byte-for-byte as stored.
///
/// Reads run in parallel on the worker threads, each on its own pooled connection; SQLite maps
/// the file and sees a change written into it in place at the next read. At most once per
/// `recheckInterval` (and at once after `recheck()`) one reader `stat`s the path; when the file
/// was replaced or written (new inode, size or times) later reads use a freshly opened copy,
/// while reads under way finish on the old one. While the file is absent tiles are `.unavailable`.
public final class MBTilesTileProvider: VersionedTileProvider {
    /// The MBTiles file.
    public let path: String
    /// The `retryAfter` seconds of `.unavailable` while the file is absent.
    public let retryAfter: Int
    private let file: ReopeningFile<MBTilesDatabase>

    /// Opens `path` and checks it now, so that a missing or broken file is a start-up error
    /// (`.fileNotFound`, `.notMBTiles`, `.unsupportedFormat`, `.invalidMetadata`, `.database`).
    public init(
        path: String, recheckInterval: Duration = .seconds(1), retryAfter: Int = 5, maxIdleConnections: Int = 8
    ) throws(TileProviderError) {
        self.path = path
        self.retryAfter = retryAfter
        file = try ReopeningFile(path: path, recheckInterval: recheckInterval, identity: \.identity) {
            identity throws(TileProviderError) in
            try MBTilesDatabase(path: path, identity: identity, maxIdleConnections: maxIdleConnections)
        }
    }

    /// The metadata of the file last opened successfully (name, bounds, center, zoom range, attribution…).
    public var metadata: MBTilesMetadata { file.lastOpened.metadata }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        try versionedTile(for: TileRequest(x: x, y: y, zoom: zoom)).0
    }

    public func versionedTile(for request: TileRequest) throws(TileProviderError) -> (TileResult, (any TileValidator)?) {
        let tile = request.tile
        guard tile.isInGrid else { return (.noTile, nil) }
        switch file.current() {
        case .missing:
            return (.unavailable(retryAfter: retryAfter), nil)
        case .failed(let error):
            throw error
        case .open(let database):
            let validator = file.validator(for: database.identity)
            // MBTiles 1.3 stores TMS rows (counted from the south): tile_row = 2^z - 1 - y.
            switch try database.lookup(zoom: tile.z, column: tile.x, row: tile.tmsY) {
            case .data(let bytes): return (.tile(Tile(data: bytes, lastModified: database.identity.modifiedSeconds)), validator)
            case .absent: return (.noTile, validator)
            case .busy: return (.unavailable(retryAfter: 1), nil)
            }
        }
    }

    public func recheck() { file.recheck() }
}
