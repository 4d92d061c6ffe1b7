internal import CSQLite
internal import CSQLiteNoWait
import Synchronization
#if os(Linux)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One SQLite connection (RAII: closed when released), with its prepared statements kept for reuse.
///
/// `@unchecked Sendable`: the handle is opened with `SQLITE_OPEN_NOMUTEX`, so SQLite does not lock it;
/// safety comes from exclusive use — an `SQLiteConnectionPool` lends each connection to one borrower
/// at a time, and a writer's connection has a single owner. Nothing here is touched by two threads at once.
final class SQLiteConnection: @unchecked Sendable {
    /// How the file is opened.
    enum Mode {
        /// Read-only; the file must exist.
        case readOnly
        /// Read-write, created when missing.
        case readWriteCreate
        /// Read-only, never waiting: through the VFS that fails a read the page cache cannot
        /// give (`CSQLiteNoWait`), with no busy timeout; for readers on event loops. `init`
        /// throws where that VFS is not available (see `canReadWithoutWaiting(_:)`).
        case readOnlyWithoutWaiting
    }

    /// The file, as given (for messages).
    let path: String
    /// The C handle, for `SQLiteStatement`.
    let handle: OpaquePointer
    /// This connection's number, unique in the process (never reused, unlike its address).
    let serial: UInt64
    /// Whether it reads through the VFS that never waits (`Mode.readOnlyWithoutWaiting`).
    let readsWithoutWaiting: Bool
    private var statements: [String: SQLiteStatement] = [:]
    /// The BLOB handle kept open by `readBlob` (it holds the read transaction: `closeBlob()` ends it).
    private var blob: SQLiteBlob?
    /// Row ids of tiles this connection found, for as long as the file holds what it read.
    let rememberedRowIDs = RememberedRowIDs()
    /// Where the table and column `readValueStraight` reads lie, at the data version they were
    /// found at (see SQLiteConnection+StraightReads.swift).
    var straightLayout: StraightLayout?
    /// The no-wait VFS's file of the database, which `readValueStraight` reads (found once: it
    /// lives as long as the connection); nil on a connection of another mode.
    let straightFile: OpaquePointer?
    /// Where `lendValueStraight` puts a lent value's pieces (empty on a connection of another mode).
    let lentPieces: UnsafeMutableBufferPointer<iovec>
    private static let opened = Atomic<UInt64>(0)

    /// How long a reader waits for a writer's lock before giving up with `SQLITE_BUSY`.
    static let busyTimeoutMilliseconds: Int32 = 250

    /// Opens `path`. SQLite opens lazily: a file that is not a database fails on the first query.
    init(path: String, mode: Mode) throws(TileProviderError) {
        var flags = SQLITE_OPEN_NOMUTEX
        var vfs: String?
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWriteCreate: flags |= SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE
        case .readOnlyWithoutWaiting:
            guard Self.withoutWaitingIsAvailable else {
                throw .database(path: path, message: "reading without waiting is not available on this system")
            }
            flags |= SQLITE_OPEN_READONLY
            vfs = CSQLITE_NOWAIT_VFS
        }
        var db: OpaquePointer?
        let code = sqlite3_open_v2(path, &db, flags, vfs)
        guard code == SQLITE_OK, let db else {
            let message = db.map { String(cString: sqlite3_errmsg($0)) } ?? String(cString: sqlite3_errstr(code))
            sqlite3_close_v2(db)
            throw .database(path: path, message: "cannot open: \(message)")
        }
        self.path = path
        self.handle = db
        self.serial = Self.opened.add(1, ordering: .relaxed).newValue
        self.readsWithoutWaiting = mode == .readOnlyWithoutWaiting
        self.straightFile = mode == .readOnlyWithoutWaiting ? csqlite_nowait_file(db) : nil
        lentPieces = .allocate(capacity: mode == .readOnlyWithoutWaiting ? Self.lentPieceCapacity : 0)
        sqlite3_busy_timeout(db, mode == .readOnlyWithoutWaiting ? 0 : Self.busyTimeoutMilliseconds)
        if mode == .readOnlyWithoutWaiting {
            // SQLite's mapped-page path, through which the VFS lends the pages of a blob it has
            // read ahead instead of copying each into SQLite's page cache. No file is mapped
            // (the size is not used otherwise): any other page is read as before. Should it
            // fail, pages are copied as before: slower, not wrong.
            _ = sqlite3_exec(db, "PRAGMA mmap_size = \(Self.mappedPagePathSize)", nil, nil, nil)
        }
    }

    /// Any size above 0 turns SQLite's mapped-page path on; the VFS maps nothing.
    private static let mappedPagePathSize = 1 << 20

    /// Whether `.readOnlyWithoutWaiting` connections can be opened here (Linux).
    static let withoutWaitingIsAvailable = csqlite_nowait_register() != 0

    /// Whether the file at `path` can be read without waiting: the VFS is there, the file is on
    /// a local filesystem (elsewhere a lock or an `fstat` asks a server), and its folder opens
    /// from the kernel's caches alone (`openat2` with `RESOLVE_CACHED`, which the VFS's journal
    /// check needs: missing before Linux 5.12, or refused by a seccomp filter).
    static func canReadWithoutWaiting(_ path: String) -> Bool {
        #if os(Linux)
        guard withoutWaitingIsAvailable, clinux_is_local_filesystem(path) != 0 else { return false }
        var folder = path
        if let slash = folder.lastIndex(of: "/") { folder = String(folder[..<slash]) } else { folder = "." }
        let descriptor = clinux_open_cached(folder.isEmpty ? "/" : folder)
        if descriptor >= 0 {
            close(descriptor)  // a folder: no lock to drop
            return true
        }
        return errno == EAGAIN  // not in the caches now: it may be later
        #else
        return false
        #endif
    }

    /// A number that changes whenever SQLite finds the file changed by another connection
    /// since this one last read it (SQLite's data version; a reset of its cache moves it too).
    /// Read inside a read transaction, it names the contents that transaction reads.
    var dataVersion: UInt32 {
        var version: UInt32 = 0
        _ = sqlite3_file_control(handle, "main", SQLITE_FCNTL_DATA_VERSION, &version)
        return version
    }

    deinit {
        blob = nil
        statements.removeAll()  // finalize statements before closing
        sqlite3_close_v2(handle)
        lentPieces.deallocate()
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

    /// The bytes of `column` in row `row` of `table`, read straight into the array (no copy
    /// through SQLite's own buffer), through a BLOB handle kept open and moved from row to row
    /// (opened again for another table or column). The handle keeps a read transaction open:
    /// call `closeBlob()` before ending it.
    func readBlob(table: String, column: String, row: Int64) throws(TileProviderError) -> [UInt8] {
        do throws(TileProviderError) {
            if let blob, blob.table == table, blob.column == column {
                try blob.move(to: row)
                return try blob.read()
            }
            let opened = try SQLiteBlob(on: self, table: table, column: column, row: row)
            blob = opened
            return try opened.read()
        } catch {
            blob = nil  // a handle that failed once only fails again
            throw error
        }
    }

    /// Closes the handle `readBlob` keeps.
    func closeBlob() { blob = nil }

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

    /// Whether a transaction is open (SQLite ends one itself when a read in it fails).
    var isInTransaction: Bool { sqlite3_get_autocommit(handle) == 0 }

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
