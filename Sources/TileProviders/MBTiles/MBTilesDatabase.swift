internal import CSQLiteNoWait
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One version of an MBTiles file, opened and checked: its metadata, a pool of read-only
/// connections, and connections for readers that must not wait (event loops), which read only
/// what the page cache holds (`SQLiteConnection.Mode.readOnlyWithoutWaiting`).
/// Immutable; when the file is replaced on disk the provider opens a new `MBTilesDatabase`.
final class MBTilesDatabase: Sendable {
    /// The outcome of one tile lookup.
    enum Lookup {
        case data([UInt8])
        case absent
        /// Another process holds a lock on the file (a writer committing): try again shortly.
        case busy
    }

    /// The file.
    let path: String
    /// The file's identity when it was opened.
    let identity: FileIdentity
    /// Its parsed metadata, with the zoom range filled in from `tiles` when absent.
    let metadata: MBTilesMetadata
    private let pool: SQLiteConnectionPool
    /// Connections that never wait, opened here (opening is file I/O) and never more: a reader
    /// that finds none free waits for the ordinary pool instead. None where such connections
    /// cannot be had or should not be used (`problemReadingWithoutWaiting`).
    private let readersWithoutWaiting: SQLiteReadersWithoutWaiting
    /// Why no connection that never waits was opened when some were asked for (nil: opened, or
    /// none asked for): every read of this file goes to the threads that may wait.
    let readersWithoutWaitingProblem: String?
    /// Whether `tiles` is a table with row ids (not a view, not `WITHOUT ROWID`): its blobs can
    /// then be read straight into the answer's bytes (`SQLiteConnection.readBlob`).
    private let tilesHaveRowIDs: Bool
    /// The file is never written in place (its operator says so): tiles lent where they lie may
    /// be sent by reference (`LentTileBytes.isImmutable`).
    private let isImmutable: Bool

    /// Opens `path` read-only and checks it is an MBTiles file of tiles in a format served
    /// (`TileFormat`); with `readersWithoutWaiting` connections for readers that must not wait,
    /// whose read transactions last `transactionLifetime` and whose mappings last `mappingLifetime`
    /// past their last read, and whose pages found in the page cache are taken to stay there for
    /// `residency` (`SQLiteReadersWithoutWaiting`); `isImmutable` when its operator says the file
    /// is never written in place.
    init(
        path: String, identity: FileIdentity, maxIdleConnections: Int, readersWithoutWaiting: Int,
        transactionLifetime: Duration, mappingLifetime: Duration, residency: Duration = .zero, isImmutable: Bool
    ) throws(TileProviderError) {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        let metadata = try Self.check(connection)
        let tilesHaveRowIDs = try Self.tilesHaveRowIDs(connection)
        var problem: String?
        if readersWithoutWaiting > 0 {
            problem = try Self.problemReadingWithoutWaiting(
                connection, metadata: metadata,
                lookup: tilesHaveRowIDs ? MBTilesSchema.selectTileRow : MBTilesSchema.selectTile)
        }
        let readers = SQLiteReadersWithoutWaiting(
            path: path, count: problem == nil ? readersWithoutWaiting : 0, transactionLifetime: transactionLifetime,
            mappingLifetime: mappingLifetime, residency: residency)
        if readersWithoutWaiting > 0, problem == nil, readers.count == 0 {
            problem = "its header could not be read without waiting when it was opened (not in the page cache, "
                + "or a filesystem that refuses RWF_NOWAIT, as overlayfs does)"
        }
        self.path = path
        self.identity = identity
        self.metadata = metadata
        self.tilesHaveRowIDs = tilesHaveRowIDs
        self.isImmutable = isImmutable
        self.pool = SQLiteConnectionPool(path: path, maxIdle: maxIdleConnections, first: connection)
        self.readersWithoutWaiting = readers
        self.readersWithoutWaitingProblem = problem
    }

    /// The bytes of the tile at `row` (TMS) of `column` at `zoom`.
    func lookup(zoom: Int, column: Int, row: Int) throws(TileProviderError) -> Lookup {
        try pool.withConnection { (connection) throws(TileProviderError) -> Lookup in
            do throws(TileProviderError) {
                return try Self.tile(zoom: zoom, column: column, row: row, on: connection).map { .data($0) } ?? .absent
            } catch {
                if connection.isBusy { return .busy }
                throw error
            }
        }
    }

    /// `lookup` on a connection that never waits: `.mustWait` when none is free, or when the
    /// read needs the disk, a lock another process holds, or fails in any other way. A tile read
    /// by row id is lent where it lies in the file when it can be (`.lent`: the connection is
    /// kept, its transaction open, until the lent bytes end), else copied.
    func lookupWithoutWaiting(zoom: Int, column: Int, row: Int) -> TileWithoutWaiting {
        let found = readersWithoutWaiting.lend {
            [tilesHaveRowIDs, isImmutable] (connection, keep) throws(TileProviderError) -> TileWithoutWaiting in
            let bytes: Found
            let dataVersion: UInt32
            if tilesHaveRowIDs {
                guard let found = try Self.blobByRowID(zoom: zoom, column: column, row: row, on: connection,
                                                       askingIfInMapping: isImmutable) else {
                    return .noTile
                }
                (bytes, dataVersion) = found
            } else {
                guard let tile = try Self.tile(zoom: zoom, column: column, row: row, on: connection) else { return .noTile }
                bytes = .copied(tile)
                // Within the reader's transaction, after the read: the version of the bytes just read.
                dataVersion = connection.dataVersion
            }
            let version = TileContentVersion(file: identity, reader: connection.serial, dataVersion: dataVersion)
            switch bytes {
            case .copied(let bytes):
                return .tile(bytes, version: version, lastModified: identity.modifiedSeconds)
            case .lent(let pieces, let count, let inMapping):
                // Lent on by reference only from the file's own pages (`inMapping`, asked of an immutable file's).
                let lent = LentTileBytes(pieces: pieces, count: count, isImmutable: inMapping, lease: keep())
                return .lent(lent, version: version, lastModified: identity.modifiedSeconds)
            }
        }
        return found ?? .mustWait
    }

    /// A tile's bytes as a read without waiting found them.
    private enum Found {
        case copied([UInt8])
        /// Where they lie in the file, valid while the connection's transaction lasts and it
        /// finds no other value (`SQLiteConnection.lendValueStraight`); `inMapping` when all lie
        /// in the file's mapping (asked only of an immutable file).
        case lent(UnsafeBufferPointer<iovec>, count: Int, inMapping: Bool)
    }

    /// The tile's bytes read straight from its row's blob, and the data version they were read
    /// at (after the read, which holds the file's lock): the row id the connection found before
    /// at that version (`RememberedRowIDs`), looked for first where its value was found (its
    /// leaf page, asked of the page cache with its overflow run), else the index's. Nil when
    /// there is no such tile. The reader's transaction stays open, so its BLOB handle does too.
    /// Whether lent pieces all lie in the file's mapping is asked only when `askingIfInMapping`
    /// (an immutable file's, which may go by reference): a scan of the pieces a tile saved.
    private static func blobByRowID(
        zoom: Int, column: Int, row: Int, on connection: SQLiteConnection, askingIfInMapping: Bool
    ) throws(TileProviderError) -> (bytes: Found, dataVersion: UInt32)? {
        // The blob, where it lies (its row's leaf page and overflow run; 0: not known), then
        // the version (current once the read holds the lock): straight from the file once the
        // transaction holds the lock (lent where it lies, or else copied), else (and for what
        // that reader leaves to SQLite) through the BLOB handle.
        func read(_ rowID: Int64, near place: CSQLiteNoWaitPlace) throws(TileProviderError)
            -> (bytes: Found, place: CSQLiteNoWaitPlace, dataVersion: UInt32) {
            if let lent = try connection.lendValueStraight(table: "tiles", column: "tile_data", row: rowID, near: place,
                                                           askingIfInMapping: askingIfInMapping) {
                return (.lent(lent.value.pieces, count: lent.value.count, inMapping: lent.value.inMapping), lent.place,
                        lent.dataVersion)
            }
            if let read = try connection.readValueStraight(table: "tiles", column: "tile_data", row: rowID, near: place) {
                return (.copied(read.value), read.place, read.dataVersion)
            }
            let bytes = try connection.readBlob(table: "tiles", column: "tile_data", row: rowID)
            return (.copied(bytes), CSQLiteNoWaitPlace(), connection.dataVersion)
        }
        let key = rowKey(zoom: zoom, column: column, row: row)
        let remembered = connection.rememberedRowIDs
        if let key, let known = remembered.rowID(for: key) {
            do throws(TileProviderError) {
                // The place is a hint, as the row id is: what a changed file holds there is
                // not used (the version tells).
                let found = try read(known.row, near: known.place)
                if found.dataVersion == known.version {
                    if !found.place.isSame(as: known.place) { remembered.remember(known.row, at: found.place, for: key, dataVersion: known.version) }
                    return (found.bytes, found.dataVersion)
                }
                remembered.removeAll()  // the file changed since: ask the index
            } catch {
                remembered.forget(key)  // a page not in the page cache, a row gone: the index decides next time
                throw error
            }
        }
        let rowID = try connection.withStatement(MBTilesSchema.selectTileRow) { (statement) throws(TileProviderError) -> Int64? in
            try bind(zoom: zoom, column: column, row: row, to: statement)
            return try statement.step() ? Int64(statement.int(0)) : nil
        }
        guard let rowID else { return nil }
        let found = try read(rowID, near: CSQLiteNoWaitPlace())
        if let key { remembered.remember(rowID, at: found.place, for: key, dataVersion: found.dataVersion) }
        return (found.bytes, found.dataVersion)
    }

    /// One number for a tile's zoom, column and row (5, 29 and 29 bits), nil past zoom 29.
    private static func rowKey(zoom: Int, column: Int, row: Int) -> Int? {
        guard (0 ... 29).contains(zoom), column >= 0, row >= 0, column >> 29 == 0, row >> 29 == 0 else { return nil }
        return zoom << 58 | column << 29 | row
    }

    /// The tile's bytes, nil when there is no such tile.
    private static func tile(zoom: Int, column: Int, row: Int, on connection: SQLiteConnection) throws(TileProviderError) -> [UInt8]? {
        try connection.withStatement(MBTilesSchema.selectTile) { (statement) throws(TileProviderError) -> [UInt8]? in
            try bind(zoom: zoom, column: column, row: row, to: statement)
            return try statement.step() ? statement.blob(0) : nil
        }
    }

    /// Binds a tile's zoom, column and row (TMS) to parameters 1, 2 and 3 of one of
    /// `MBTilesSchema`'s lookups.
    private static func bind(zoom: Int, column: Int, row: Int, to statement: SQLiteStatement) throws(TileProviderError) {
        try statement.bind(zoom, at: 1)
        try statement.bind(column, at: 2)
        try statement.bind(row, at: 3)
    }

    /// Whether `tiles` is a rowid table (see `tilesHaveRowIDs`): a table, whose row ids can be
    /// selected (a `WITHOUT ROWID` table's cannot).
    private static func tilesHaveRowIDs(_ connection: SQLiteConnection) throws(TileProviderError) -> Bool {
        let isTable = try connection.withStatement(MBTilesSchema.tilesDefinition) { (statement) throws(TileProviderError) in
            try statement.step() && statement.text(0) == "table"
        }
        guard isTable else { return false }
        do {
            try connection.withStatement(MBTilesSchema.selectAnyRowID) { (statement) throws(TileProviderError) in
                _ = try statement.step()
            }
            return true
        } catch {
            return false
        }
    }

    /// Why this file's tiles may not be read by connections that never wait, nil when they may:
    /// such a read must be able to succeed here (`SQLiteConnection.canReadWithoutWaiting`:
    /// Linux, a local filesystem); the file must not be in WAL mode (the WAL index is mapped,
    /// which may wait), nor hold vector tiles (served per client `Accept-Encoding`, by the
    /// workers); and SQLite must find a tile by an index search (`lookup`'s plan scans no table:
    /// without an index a lookup reads the whole file, no work for an event loop even from the
    /// page cache).
    private static func problemReadingWithoutWaiting(
        _ connection: SQLiteConnection, metadata: MBTilesMetadata, lookup: String
    ) throws(TileProviderError) -> String? {
        if metadata.tileFormat == .pbf { return "its tiles are vector tiles (each answered per client Accept-Encoding)" }
        guard SQLiteConnection.canReadWithoutWaiting(connection.path) else {
            return "reads that never wait are not possible there (not Linux, not a local filesystem, or no openat2 RESOLVE_CACHED)"
        }
        let usesWAL = try connection.withStatement("PRAGMA journal_mode") { (statement) throws(TileProviderError) in
            try statement.step() && statement.text(0)?.lowercased() == "wal"
        }
        if usesWAL { return "it is in WAL mode (its WAL index is mapped, which may wait)" }
        let searches = try connection.withStatement("EXPLAIN QUERY PLAN " + lookup) { (statement) throws(TileProviderError) in
            var steps = 0
            while try statement.step() {
                steps += 1
                if (statement.text(3) ?? "").hasPrefix("SCAN") { return false }  // the plan's detail column
            }
            return steps > 0
        }
        return searches ? nil : "a tile lookup scans a table (no index on zoom_level, tile_column, tile_row)"
    }

    /// Checks the schema and reads the metadata over `connection`.
    private static func check(_ connection: SQLiteConnection) throws(TileProviderError) -> MBTilesMetadata {
        let path = connection.path
        var objects: Set<String> = []
        do throws(TileProviderError) {
            try connection.withStatement(MBTilesSchema.requiredObjects) { (statement) throws(TileProviderError) in
                while try statement.step() { objects.insert(statement.text(0) ?? "") }
            }
        } catch {
            // SQLite opens lazily: random bytes are first noticed by this query (SQLITE_NOTADB).
            if connection.isNotADatabase { throw .notMBTiles(path: path, reason: "not an SQLite database") }
            throw error
        }
        guard objects.contains("tiles") else { throw .notMBTiles(path: path, reason: "no tiles table") }
        guard objects.contains("metadata") else { throw .notMBTiles(path: path, reason: "no metadata table") }

        var values: [String: String] = [:]
        try connection.withStatement(MBTilesSchema.selectMetadata) { (statement) throws(TileProviderError) in
            while try statement.step() {
                guard let name = statement.text(0) else { continue }
                values[name] = statement.text(1) ?? ""
            }
        }
        var metadata = try MBTilesMetadata(parsing: values, path: path)
        // MBTiles 1.3 requires `format`; a file without it holds what the layer's `format` says (PNG by default).
        if let format = metadata.format, TileFormat(name: format) == nil {
            throw .unsupportedFormat(path: path, format: format)
        }
        if metadata.minZoom == nil || metadata.maxZoom == nil {
            try connection.withStatement(MBTilesSchema.selectZoomRange) { (statement) throws(TileProviderError) in
                guard try statement.step(), !statement.isNull(0), !statement.isNull(1) else { return }
                metadata.minZoom = metadata.minZoom ?? statement.int(0)
                metadata.maxZoom = metadata.maxZoom ?? statement.int(1)
            }
        }
        return metadata
    }
}
