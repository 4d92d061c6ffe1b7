internal import CSQLite

/// A prepared SQLite statement, finalized when released. Belongs to one `SQLiteConnection`
/// and is used only by whoever holds that connection.
final class SQLiteStatement {
    private let handle: OpaquePointer
    private unowned let connection: SQLiteConnection

    /// SQLite copies the bytes bound with this destructor (`SQLITE_TRANSIENT`).
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    /// Prepares `sql` on `connection`.
    init(_ sql: String, on connection: SQLiteConnection) throws(TileProviderError) {
        var statement: OpaquePointer?
        let code = sqlite3_prepare_v2(connection.handle, sql, -1, &statement, nil)
        guard code == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw connection.error(code, while: "preparing \(sql)")
        }
        self.handle = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(handle) }

    /// Clears bindings and the cursor so the statement can run again.
    func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Binds an integer to the 1-based parameter `index`.
    func bind(_ value: Int, at index: Int32) throws(TileProviderError) {
        try check(sqlite3_bind_int64(handle, index, sqlite3_int64(value)))
    }

    /// Binds text to the 1-based parameter `index`.
    func bind(_ value: String, at index: Int32) throws(TileProviderError) {
        try check(sqlite3_bind_text(handle, index, value, -1, Self.transient))
    }

    /// Binds a blob to the 1-based parameter `index`.
    func bind(_ value: [UInt8], at index: Int32) throws(TileProviderError) {
        let code = value.withUnsafeBytes { bytes in
            // A zero-length blob still needs a non-null pointer, or SQLite stores NULL.
            sqlite3_bind_blob(handle, index, bytes.baseAddress ?? UnsafeRawPointer(bitPattern: 1), Int32(bytes.count),
                              Self.transient)
        }
        try check(code)
    }

    /// Advances to the next row: true when there is one, false when done.
    func step() throws(TileProviderError) -> Bool {
        let code = sqlite3_step(handle)
        switch code {
        case SQLITE_ROW: return true
        case SQLITE_DONE: return false
        default: throw connection.error(code, while: "reading")
        }
    }

    /// Whether column `index` (0-based) of the current row is NULL.
    func isNull(_ index: Int32) -> Bool { sqlite3_column_type(handle, index) == SQLITE_NULL }

    /// Column `index` of the current row as an integer (NULL is 0).
    func int(_ index: Int32) -> Int { Int(sqlite3_column_int64(handle, index)) }

    /// Column `index` of the current row as text (NULL is nil).
    func text(_ index: Int32) -> String? {
        guard let text = sqlite3_column_text(handle, index) else { return nil }
        return String(cString: text)
    }

    /// Column `index` of the current row as bytes, copied (NULL is empty).
    func blob(_ index: Int32) -> [UInt8] {
        // sqlite3_column_blob first, then sqlite3_column_bytes (the order the SQLite docs require).
        guard let pointer = sqlite3_column_blob(handle, index) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, index))
        // One memcpy (building the array from a raw buffer copies it element by element).
        return [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            if count > 0 { UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: pointer, byteCount: count) }
            initialized = count
        }
    }

    private func check(_ code: Int32) throws(TileProviderError) {
        guard code == SQLITE_OK else { throw connection.error(code, while: "binding a parameter") }
    }
}
