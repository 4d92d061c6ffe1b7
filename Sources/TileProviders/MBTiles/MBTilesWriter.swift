#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import TileGeometry

/// Writes a new MBTiles 1.3 file of PNG tiles (for `seed --to out.mbtiles`).
///
/// Everything goes to a temporary file beside `path`, in transactions of `batchSize` tiles;
/// `finish()` commits, syncs and renames it over `path` in one step, so readers (and an
/// `MBTilesTileProvider` watching `path`) never see a half-written file. Use from one thread at a time.
public final class MBTilesWriter {
    /// The file made by `finish()`.
    public let path: String
    /// Tiles per transaction.
    public let batchSize: Int
    /// Tiles written so far.
    public private(set) var tileCount = 0

    private let temporaryPath: String
    private var connection: SQLiteConnection?
    private var pendingInTransaction = 0
    private var metadataKeys: Set<String> = []

    /// Creates the temporary file with the MBTiles 1.3 schema; `path` itself is untouched until `finish()`.
    public init(path: String, batchSize: Int = 1000) throws(TileProviderError) {
        self.path = path
        self.batchSize = max(1, batchSize)
        // Unique per writer, so two writers of the same path never share (or delete) a temporary file.
        self.temporaryPath = "\(path).\(getpid()).\(UInt64.random(in: 0 ... .max)).tmp"
        let connection = try SQLiteConnection(path: temporaryPath, mode: .readWriteCreate)
        self.connection = connection
        do throws(TileProviderError) {
            // The temporary file is thrown away on failure, so no rollback journal or fsync per commit.
            try connection.execute("""
                PRAGMA application_id = \(MBTilesSchema.applicationID);
                PRAGMA journal_mode = MEMORY;
                PRAGMA synchronous = OFF;
                \(MBTilesSchema.create)
                BEGIN;
                """)
        } catch {
            cancel()
            throw error
        }
    }

    deinit { if connection != nil { cancel() } }

    /// Sets the metadata row `key` (`name`, `format`, `bounds`, `center`, `minzoom`, `maxzoom`, `attribution`…).
    public func setMetadata(_ key: String, _ value: String) throws(TileProviderError) {
        try liveConnection().withStatement(MBTilesSchema.insertMetadata) { (statement) throws(TileProviderError) in
            try statement.bind(key, at: 1)
            try statement.bind(value, at: 2)
            _ = try statement.step()
        }
        metadataKeys.insert(key)
    }

    /// Sets every row of `metadata.encodedValues`.
    public func setMetadata(_ metadata: MBTilesMetadata) throws(TileProviderError) {
        for (key, value) in metadata.encodedValues.sorted(by: { $0.key < $1.key }) {
            try setMetadata(key, value)
        }
    }

    /// Stores `data` as the tile at `tile` (XYZ; stored as its TMS row), replacing any earlier one.
    public func write(tile: TileCoordinate, data: [UInt8]) throws(TileProviderError) {
        guard tile.normalized() == tile else {
            throw .invalidConfiguration("tile \(tile) is outside the tile grid; cannot write it to \(path)")
        }
        try liveConnection().withStatement(MBTilesSchema.insertTile) { (statement) throws(TileProviderError) in
            try statement.bind(tile.z, at: 1)
            try statement.bind(tile.x, at: 2)
            try statement.bind(tile.tmsY, at: 3)  // MBTiles 1.3: rows are TMS, y flipped
            try statement.bind(data, at: 4)
            _ = try statement.step()
        }
        tileCount += 1
        pendingInTransaction += 1
        if pendingInTransaction >= batchSize {
            try liveConnection().execute("COMMIT; BEGIN;")
            pendingInTransaction = 0
        }
    }

    /// Fills `format` (png), `name` (the file name), `minzoom` and `maxzoom` (from the tiles) when
    /// not set, commits, syncs and renames the file to `path`. The writer cannot be used afterwards.
    public func finish() throws(TileProviderError) {
        let connection = try liveConnection()
        do throws(TileProviderError) {
            if !metadataKeys.contains("format") { try setMetadata("format", TileFormat.png.rawValue) }
            if !metadataKeys.contains("name") {
                try setMetadata("name", String(path.split(separator: "/").last ?? Substring(path)))
            }
            try fillZoomRange(connection)
            try connection.execute("COMMIT;")
        } catch {
            cancel()
            throw error
        }
        self.connection = nil  // closes the database before the file is synced and renamed
        let fd = open(temporaryPath, O_RDONLY | O_CLOEXEC)
        if fd >= 0 {
            fsync(fd)
            close(fd)
        }
        guard rename(temporaryPath, path) == 0 else {
            let code = errno
            unlink(temporaryPath)
            throw .unwritable(path: path, errno: code)
        }
    }

    /// Abandons the file: closes and deletes the temporary file; `path` is untouched.
    public func cancel() {
        connection = nil
        unlink(temporaryPath)
    }

    private func fillZoomRange(_ connection: SQLiteConnection) throws(TileProviderError) {
        guard !metadataKeys.contains("minzoom") || !metadataKeys.contains("maxzoom") else { return }
        let range = try connection.withStatement(MBTilesSchema.selectZoomRange) {
            (statement) throws(TileProviderError) -> (Int, Int)? in
            guard try statement.step(), !statement.isNull(0) else { return nil }
            return (statement.int(0), statement.int(1))
        }
        guard let range else { return }
        if !metadataKeys.contains("minzoom") { try setMetadata("minzoom", String(range.0)) }
        if !metadataKeys.contains("maxzoom") { try setMetadata("maxzoom", String(range.1)) }
    }

    private func liveConnection() throws(TileProviderError) -> SQLiteConnection {
        // Using a writer after finish() or cancel() is a programming error, not bad input.
        guard let connection else { preconditionFailure("MBTilesWriter for \(path) used after finish() or cancel()") }
        return connection
    }
}
