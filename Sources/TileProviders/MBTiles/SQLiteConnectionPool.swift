import Synchronization

/// Read-only connections to one SQLite file, lent one per reader so reads run in parallel
/// without a global lock: the mutex guards only the idle list (a push or a pop), never a query.
final class SQLiteConnectionPool: Sendable {
    /// The database file.
    let path: String
    /// Connections kept open when idle; more may be open while many readers are busy.
    let maxIdle: Int
    private let idle: Mutex<[SQLiteConnection]>

    /// A pool over `path`, starting with `first` (an already opened connection) when given.
    init(path: String, maxIdle: Int, first: SQLiteConnection? = nil) {
        self.path = path
        self.maxIdle = max(1, maxIdle)
        self.idle = Mutex(first.map { [$0] } ?? [])
    }

    /// Runs `body` with a connection no one else uses meanwhile, then takes it back.
    func withConnection<Result>(
        _ body: (SQLiteConnection) throws(TileProviderError) -> Result
    ) throws(TileProviderError) -> Result {
        let connection = try borrow()
        defer { giveBack(connection) }
        return try body(connection)
    }

    private func borrow() throws(TileProviderError) -> SQLiteConnection {
        if let connection = idle.withLock({ $0.popLast() }) { return connection }
        // Opened outside the lock: opening is file I/O.
        return try SQLiteConnection(path: path, mode: .readOnly)
    }

    private func giveBack(_ connection: SQLiteConnection) {
        let surplus: SQLiteConnection? = idle.withLock { list in
            guard list.count < maxIdle else { return connection }
            list.append(connection)
            return nil
        }
        _ = surplus  // a surplus connection is closed here, outside the lock, when released
    }
}
