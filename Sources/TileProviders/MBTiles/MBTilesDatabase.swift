/// One version of an MBTiles file, opened and checked: its metadata and a pool of read-only
/// connections. Immutable; when the file is replaced on disk the provider opens a new one.
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

    /// Opens `path` read-only and checks it is an MBTiles file of tiles in a format served
    /// (`TileFormat`).
    init(path: String, identity: FileIdentity, maxIdleConnections: Int) throws(TileProviderError) {
        let connection = try SQLiteConnection(path: path, mode: .readOnly)
        metadata = try Self.check(connection)
        self.path = path
        self.identity = identity
        pool = SQLiteConnectionPool(path: path, maxIdle: maxIdleConnections, first: connection)
    }

    /// The bytes of the tile at `row` (TMS) of `column` at `zoom`.
    func lookup(zoom: Int, column: Int, row: Int) throws(TileProviderError) -> Lookup {
        try pool.withConnection { (connection) throws(TileProviderError) -> Lookup in
            do throws(TileProviderError) {
                return try connection.withStatement(MBTilesSchema.selectTile) { (statement) throws(TileProviderError) in
                    try statement.bind(zoom, at: 1)
                    try statement.bind(column, at: 2)
                    try statement.bind(row, at: 3)
                    return try statement.step() ? .data(statement.blob(0)) : .absent
                }
            } catch {
                if connection.isBusy { return .busy }
                throw error
            }
        }
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
