import Synchronization
import TileGeometry

/// Tiles from an MBTiles 1.3 file (SQLite, read-only), byte-for-byte as stored.
///
/// Reads run in parallel, each on its own pooled connection. At most once per `recheckInterval`
/// one reader `stat`s the file; when it was replaced (new inode, size or time) the next reads use
/// a freshly opened copy, while reads already under way finish on the old one. While the file is
/// absent tiles are `.unavailable`; when it comes back it is opened again.
public final class MBTilesTileProvider: SyncTileProvider {
    /// The MBTiles file.
    public let path: String
    /// How often the read path checks whether the file was replaced.
    public let recheckInterval: Duration
    /// The `retryAfter` seconds of `.unavailable` while the file is absent.
    public let retryAfter: Int
    /// Idle connections kept per file version.
    public let maxIdleConnections: Int
    private let state: Mutex<State>

    /// What the provider currently reads from.
    private enum Source: Sendable {
        case open(MBTilesDatabase)
        case missing
        /// The file is there but cannot be used (replaced by a broken copy); retried at each check.
        case failed(TileProviderError)
    }

    private struct State: Sendable {
        var source: Source
        var metadata: MBTilesMetadata
        var nextCheck: ContinuousClock.Instant
        var checking = false
    }

    /// Opens `path` and checks it now, so that a missing or broken file is a start-up error
    /// (`.fileNotFound`, `.notMBTiles`, `.unsupportedFormat`, `.invalidMetadata`, `.database`).
    public init(
        path: String, recheckInterval: Duration = .seconds(1), retryAfter: Int = 5, maxIdleConnections: Int = 8
    ) throws(TileProviderError) {
        guard let identity = try FileIdentity.of(path) else { throw .fileNotFound(path: path) }
        let database = try MBTilesDatabase(path: path, identity: identity, maxIdleConnections: maxIdleConnections)
        self.path = path
        self.recheckInterval = recheckInterval
        self.retryAfter = retryAfter
        self.maxIdleConnections = maxIdleConnections
        self.state = Mutex(State(
            source: .open(database), metadata: database.metadata, nextCheck: .now + recheckInterval))
    }

    /// The metadata of the file last opened successfully (name, bounds, center, zoom range, attribution…).
    public var metadata: MBTilesMetadata { state.withLock { $0.metadata } }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        guard zoom >= 0, zoom <= TileCoordinate.maxZoom else { return .noTile }
        let side = TileCoordinate.tilesPerSide(atZoom: zoom)
        guard (0 ..< side).contains(x), (0 ..< side).contains(y) else { return .noTile }
        switch try currentSource() {
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

    /// The source to read from, re-checked against the disk when the interval has passed.
    /// Only one reader checks at a time; the others keep using the current source meanwhile.
    /// The `stat` and any reopening happen outside the lock.
    private func currentSource() throws(TileProviderError) -> Source {
        let now = ContinuousClock.now
        let (source, mustCheck) = state.withLock { state -> (Source, Bool) in
            guard !state.checking, now >= state.nextCheck else { return (state.source, false) }
            state.checking = true
            return (state.source, true)
        }
        guard mustCheck else { return source }
        let fresh = refreshed(source)
        state.withLock { state in
            state.source = fresh
            if case .open(let database) = fresh { state.metadata = database.metadata }
            state.checking = false
            state.nextCheck = .now + recheckInterval
        }
        return fresh
    }

    /// `source` if the file is unchanged, else what the file on disk is now.
    private func refreshed(_ source: Source) -> Source {
        let identity: FileIdentity?
        do { identity = try FileIdentity.of(path) } catch { return .failed(error) }
        guard let identity else { return .missing }
        if case .open(let database) = source, database.identity == identity { return source }
        do {
            return .open(try MBTilesDatabase(path: path, identity: identity, maxIdleConnections: maxIdleConnections))
        } catch {
            return .failed(error)
        }
    }
}
