internal import CSQLite
internal import CSQLiteNoWait
#if canImport(Glibc)
import Glibc
#endif

extension SQLiteConnection {
    /// A rowid table's B-tree root page and a column's place in its records, as the schema said
    /// at one data version (a `VACUUM` or a schema change moves them, and the data version).
    struct StraightLayout {
        let table: String
        let column: String
        let dataVersion: UInt32
        /// Nil when the VFS's reader cannot read the column (no such table or column, or a
        /// hidden or generated column, which records do not hold as the schema lists them).
        let place: (root: UInt32, index: Int32)?
    }

    /// Column `column` (a BLOB or TEXT) of row `row` of the rowid table `table`, read straight
    /// from the file by the VFS's own reader (`csqlite_nowait_find_value`): its B-tree walked by
    /// hand, a chain of adjacent overflow pages read in one system call straight into the
    /// array, with no copy through SQLite's pages. Only on a connection that reads without
    /// waiting, in a read transaction that holds the file's lock (a statement or a BLOB read
    /// took it), which keeps any writer out meanwhile. Nil when that reader leaves the read to
    /// SQLite (no lock yet, a page that does not parse, a row not there, a value of another
    /// type: `readBlob` then reads it, or says what is wrong); throws when a page is not in the
    /// page cache.
    func readValueStraight(table: String, column: String, row: Int64) throws(TileProviderError) -> [UInt8]? {
        guard let file = straightFile, let (root, index) = try straightPlace(table: table, column: column) else { return nil }
        let count = csqlite_nowait_find_value(file, root, row, index)
        if count == CSQLITE_NOWAIT_WOULD_WAIT { throw .unreadable(path: path, errno: EAGAIN) }
        guard count >= 0 else { return nil }
        var code = Int32(0)
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            code = csqlite_nowait_read_value(file, buffer.baseAddress)
            initialized = code == 0 ? count : 0
        }
        if code == CSQLITE_NOWAIT_WOULD_WAIT { throw .unreadable(path: path, errno: EAGAIN) }
        return code == 0 ? bytes : nil
    }

    /// `readValueStraight`'s value lent where it lies instead of copied
    /// (`csqlite_nowait_lend_value`): pieces of the file mapped read-only, each page checked to be
    /// in the page cache, and the value's length. The pieces stay valid while this connection's
    /// read transaction lasts and it finds no other value: whoever holds them must keep the
    /// connection to itself meanwhile (`SQLiteReadersWithoutWaiting.lend`). Nil when that
    /// reader leaves the value to be read (as `readValueStraight`, or a value in more pieces
    /// than `lentPieceCapacity`); throws when a page is not in the page cache.
    func lendValueStraight(
        table: String, column: String, row: Int64
    ) throws(TileProviderError) -> (pieces: UnsafeBufferPointer<iovec>, count: Int)? {
        guard let file = straightFile, let (root, index) = try straightPlace(table: table, column: column) else { return nil }
        let count = csqlite_nowait_find_value(file, root, row, index)
        if count == CSQLITE_NOWAIT_WOULD_WAIT { throw .unreadable(path: path, errno: EAGAIN) }
        guard count >= 0 else { return nil }
        let pieces = csqlite_nowait_lend_value(file, lentPieces.baseAddress, Int32(lentPieces.count))
        if pieces == CSQLITE_NOWAIT_WOULD_WAIT { throw .unreadable(path: path, errno: EAGAIN) }
        guard pieces >= 0 else { return nil }
        return (UnsafeBufferPointer(rebasing: lentPieces[..<Int(pieces)]), count)
    }

    /// Unmaps the file `lendValueStraight` lends from (mapped again at the next lend). Only while
    /// nothing it lent is in use.
    func unmapLentValues() {
        if let file = straightFile { csqlite_nowait_unmap(file) }
    }

    /// Pieces a lent value may have, at most: values up to about 2 MB in 4 KiB pages (one piece
    /// a page), within what one `writev` takes (IOV_MAX, 1024) beside an answer's head.
    static let lentPieceCapacity = 512

    /// `table`'s root page and `column`'s index in its records at the current data version:
    /// found by a query when the version (or the table or column) changed since last asked.
    private func straightPlace(table: String, column: String) throws(TileProviderError) -> (root: UInt32, index: Int32)? {
        if let known = straightLayout, known.dataVersion == dataVersion, known.table == table, known.column == column {
            return known.place
        }
        let place = try withStatement(Self.straightPlaceQuery) { (statement) throws(TileProviderError) -> (root: UInt32, index: Int32)? in
            try statement.bind(table, at: 1)
            try statement.bind(column, at: 2)
            guard try statement.step(), !statement.isNull(1), statement.int(2) == 0,
                  let root = UInt32(exactly: statement.int(0)), root > 0, let index = Int32(exactly: statement.int(1))
            else { return nil }
            return (root, index)
        }
        // The version after the query, which took the file's lock if the transaction had none.
        straightLayout = StraightLayout(table: table, column: column, dataVersion: dataVersion, place: place)
        return place
    }

    /// A table's root page, a column's index, and how many hidden or generated columns it has.
    private static let straightPlaceQuery = """
        SELECT rootpage,
               (SELECT cid FROM pragma_table_xinfo(?1) WHERE name = ?2),
               (SELECT count(*) FROM pragma_table_xinfo(?1) WHERE hidden != 0)
        FROM sqlite_schema WHERE type = 'table' AND name = ?1
        """
}
