internal import CSQLite

/// One SQLite connection (RAII: closed when released), with its prepared statements kept for reuse.
///
/// `@unchecked Sendable`: the handle is opened with `SQLITE_OPEN_NOMUTEX`, so SQLite does not lock it;
/// safety comes from exclusive use — an `SQLiteConnectionPool` lends each connection to one borrower
/// at a time, and a writer's connection has a single owner. Nothing here is touched by two threads at once.
final class SQLiteConnection: @unchecked Sendable {
    /// How the file is opened.
    enum Mode {
        /// Read-only; the file must exist. Pages are read through SQLite's memory map
        /// (`mappedBytes`): a tile's pages are not copied into SQLite's page cache first.
        case readOnly
        /// Read-write, created when missing.
        case readWriteCreate
    }

    /// The file, as given (for messages).
    let path: String
    /// The C handle, for `SQLiteStatement`.
    let handle: OpaquePointer
    private var statements: [String: SQLiteStatement] = [:]

    /// How long a reader waits for a writer's lock before giving up with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 250
    /// The most of a read-only file SQLite maps (`PRAGMA mmap_size`); SQLite caps it at its
    /// compile-time limit (2 GiB on Debian). Reads beyond it go through `pread`.
    static let mappedBytes = 1 << 40

    /// Opens `path`. SQLite opens lazily: a file that is not a database fails on the first query.
    init(path: String, mode: Mode) throws(TileProviderError) {
        var flags = SQLITE_OPEN_NOMUTEX
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, nil)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(db)
            throw .database(path: path, message: "cannot open: \(message)")
        }
        self.path = path
        self.handle = db
        sqlite3_busy_timeout(db, Self.busyTimeoutMilliseconds)
        // Should it fail, pages are read with pread as before: slower, not wrong.
        if mode == .readOnly { _ = sqlite3_exec(db, "PRAGMA mmap_size = \(Self.mappedBytes)", nil, nil, nil) }
    }

    deinit {
        statements.removeAll()  // finalize statements before closing
        sqlite3_close_v2(handle)
    }

    /// Runs `body` with the statement for `sql`, prepared once per connection and reused.
    /// The statement is reset afterwards, which also ends its read transaction (no lock left held).
    func withStatement<Result>(
        _ sql: String, _ body: (SQLiteStatement) throws(TileProviderError) -> Result
    ) throws(TileProviderError) -> Result {
        let statement: SQLiteStatement
        if let cached = statements[sql] {
            statement = cached
        } else {
            statement = try SQLiteStatement(sql, on: self)
            statements[sql] = statement
        }
        defer { statement.reset() }
        return try body(statement)
    }

    /// Runs `sql` (one or more statements, no results).
    func execute(_ sql: String) throws(TileProviderError) {
        var message: UnsafeMutablePointer<CChar>?
        let code = sqlite3_exec(handle, sql, nil, nil, &message)
        defer { sqlite3_free(message) }
        guard code == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(code))
            throw .database(path: path, message: "\(text) (in \(sql))")
        }
    }

    /// Whether the last failure was SQLite's "busy"/"locked": another process holds a lock.
    var isBusy: Bool {
        let code = sqlite3_errcode(handle)
        return code == SQLITE_BUSY || code == SQLITE_LOCKED
    }

    /// Whether the last failure means the file is not a database at all.
    var isNotADatabase: Bool { sqlite3_errcode(handle) == SQLITE_NOTADB }

    /// The error for result `code`, with SQLite's message and what was being done.
    func error(_ code: Int32, while doing: String) -> TileProviderError {
        let message = String(cString: sqlite3_errmsg(handle))
        return .database(path: path, message: "\(message) (\(doing))")
    }
}
