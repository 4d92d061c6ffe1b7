internal import CSQLite
internal import CSQLiteNoWait

/// An open SQLite BLOB handle (incremental I/O) on one column of a rowid table, read-only,
/// closed when released. It keeps its connection's read transaction open while it lives.
final class SQLiteBlob {
    /// The table and column it reads.
    let table: String
    let column: String
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    /// Opens `column` of row `row` in `table`.
    init(on connection: SQLiteConnection, table: String, column: String, row: Int64) throws(TileProviderError) {
        var blob: OpaquePointer?
        let code = sqlite3_blob_open(connection.handle, "main", table, column, row, 0, &blob)
        guard code == SQLITE_OK, let blob else {
            sqlite3_blob_close(blob)
            throw connection.error(code, while: "opening \(table).\(column) of row \(row)")
        }
        self.table = table
        self.column = column
        self.handle = blob
        self.connection = connection
    }

    deinit { sqlite3_blob_close(handle) }

    /// Points the handle at row `row` (of the same table and column).
    func move(to row: Int64) throws(TileProviderError) {
        let code = sqlite3_blob_reopen(handle, row)
        guard code == SQLITE_OK else { throw connection.error(code, while: "moving to row \(row)") }
    }

    /// The row's bytes, read straight into the array. On a connection that reads without
    /// waiting, the VFS is told a blob of that length is being read, so it reads the blob's
    /// adjacent overflow pages together, not with one system call each.
    func read() throws(TileProviderError) -> [UInt8] {
        let count = Int(sqlite3_blob_bytes(handle))
        var code = SQLITE_OK
        let announced = connection.readsWithoutWaiting && count > 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if announced { csqlite_nowait_blob(connection.handle, count) }
            if count > 0 { code = sqlite3_blob_read(handle, buffer.baseAddress, Int32(count), 0) }
            if announced { csqlite_nowait_blob(connection.handle, -1) }
            initialized = code == SQLITE_OK ? count : 0
        }
        guard code == SQLITE_OK else { throw connection.error(code, while: "reading a blob") }
        return bytes
    }
}
