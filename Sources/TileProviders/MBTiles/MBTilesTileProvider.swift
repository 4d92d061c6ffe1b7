import TileGeometry

/// Tiles from an MBTiles 1.3 file (SQLite, read-only), byte-for-byte as stored.
///
/// Reads run in parallel, each on its own pooled connection. At most once per `recheckInterval`
/// one reader `stat`s the file; when it was replaced (new inode, size or time) the next reads use
/// a freshly opened copy, while reads already under way finish on the old one. While the file is
/// absent tiles are `.unavailable`; when it comes back it is opened again.
///
/// An event loop reads through `tileWithoutWaiting`: on connections of its own that read only
/// what the page cache holds; a check of the file that falls due is made on another thread.
public final class MBTilesTileProvider: WithoutWaitingTileProvider {
    /// The MBTiles file.
    public let path: String
    /// How often the read path checks whether the file was replaced.
    public let recheckInterval: Duration
    /// The `retryAfter` seconds of `.unavailable` while the file is absent.
    public let retryAfter: Int
    /// Idle connections kept per file version.
    public let maxIdleConnections: Int
    /// Connections per file version for readers that must not wait (one per event loop).
    public let readersWithoutWaiting: Int
    /// How long such a connection keeps a read transaction open (`SQLiteReadersWithoutWaiting`):
    /// a change written into the file in place is seen on the event loops that much later, and
    /// a writer waits for up to that long.
    public let readTransactionLifetime: Duration
    /// How long such a connection keeps the file mapped after its last read
    /// (`SQLiteReadersWithoutWaiting`): the pages it lent tiles from stay mapped (and counted in
    /// the process's RSS) that long, so traffic that pauses for less finds them mapped.
    public let mappingLifetime: Duration
    /// `mappingLifetime` unless asked otherwise: like nginx's `open_file_cache inactive=`
    /// default for the descriptors it keeps.
    public static let defaultMappingLifetime = Duration.seconds(60)
    /// How long pages of the file such a connection found in the page cache are taken to stay
    /// there: a tile lent from them again within it is not asked about again (one `mincore` a
    /// tile saved; `csqlite_nowait_trust_residency`). Zero: asked before every tile.
    public let residency: Duration
    /// Its readers ask the page cache (`mincore`) before they lend a tile where it lies.
    public var asksThePageCache: Bool { true }
    /// The file is never written in place while it is served (its operator's promise; a new
    /// version replaces it by rename): a tile lent where it lies may go to the socket by
    /// reference, its pages not copied (`LentTileBytes.isImmutable`).
    public let isImmutable: Bool
    private let file: ReopeningFile<MBTilesDatabase>

    /// Opens `path` and checks it now, so that a missing or broken file is a start-up error
    /// (`.fileNotFound`, `.notMBTiles`, `.unsupportedFormat`, `.invalidMetadata`, `.database`).
    public init(
        path: String, recheckInterval: Duration = .seconds(1), retryAfter: Int = 5, maxIdleConnections: Int = 8,
        readersWithoutWaiting: Int = 2, readTransactionLifetime: Duration = .milliseconds(250),
        mappingLifetime: Duration = defaultMappingLifetime, residency: Duration = .zero, isImmutable: Bool = false
    ) throws(TileProviderError) {
        self.path = path
        self.recheckInterval = recheckInterval
        self.retryAfter = retryAfter
        self.maxIdleConnections = maxIdleConnections
        self.readersWithoutWaiting = readersWithoutWaiting
        self.readTransactionLifetime = readTransactionLifetime
        self.mappingLifetime = mappingLifetime
        self.residency = residency
        self.isImmutable = isImmutable
        file = try ReopeningFile(path: path, recheckInterval: recheckInterval, identity: \.identity) {
            identity throws(TileProviderError) in
            try MBTilesDatabase(path: path, identity: identity, maxIdleConnections: maxIdleConnections,
                                readersWithoutWaiting: readersWithoutWaiting, transactionLifetime: readTransactionLifetime,
                                mappingLifetime: mappingLifetime, residency: residency, isImmutable: isImmutable)
        }
    }

    /// The metadata of the file last opened successfully (name, bounds, center, zoom range, attribution…).
    public var metadata: MBTilesMetadata { file.lastOpened.metadata }

    /// Why the file last opened successfully is not read without waiting although
    /// `readersWithoutWaiting` asked for it to be (nil: it is, or it was not asked): every tile
    /// then goes through `tile(for:)`.
    public var readersWithoutWaitingProblem: String? { file.lastOpened.readersWithoutWaitingProblem }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        guard TileCoordinate(z: zoom, x: x, y: y).isInGrid else { return .noTile }
        switch file.current() {
        case .missing:
            return .unavailable(retryAfter: retryAfter)
        case .failed(let error):
            throw error
        case .open(let database):
            // MBTiles 1.3 stores TMS rows (counted from the south): tile_row = 2^z - 1 - y.
            let row = TileCoordinate(z: zoom, x: x, y: y).tmsY
            switch try database.lookup(zoom: zoom, column: x, row: row) {
            case .data(let bytes): return .tile(Tile(data: bytes, lastModified: database.identity.modifiedSeconds))
            case .absent: return .noTile
            case .busy: return .unavailable(retryAfter: 1)
            }
        }
    }

    /// The tile from the page cache alone, on a connection that never waits. A check of the
    /// file that fell due is made on another thread meanwhile; while the file is missing or
    /// broken, `tile(for:)` answers (`.mustWait`).
    public func tileWithoutWaiting(for request: TileRequest) -> TileWithoutWaiting {
        let tile = request.tile
        guard tile.isInGrid else { return .noTile }
        guard case .open(let database) = file.currentWithoutWaiting() else { return .mustWait }
        return database.lookupWithoutWaiting(zoom: tile.z, column: tile.x, row: tile.tmsY)
    }
}
