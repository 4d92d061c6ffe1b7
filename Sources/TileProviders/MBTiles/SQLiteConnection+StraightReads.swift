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

    /// What a straight read found: the value (its bytes, or where they lie), where it lies (its
    /// row's table leaf page and overflow run: to read the row from there next time, while the
    /// file does not change: `near`), and the data version it was read at (the file's lock held
    /// meanwhile).
    struct StraightValue<Value> {
        let value: Value
        let place: CSQLiteNoWaitPlace
        let dataVersion: UInt32
    }

    /// Column `column` (a BLOB or TEXT) of row `row` of the rowid table `table`, read straight
    /// from the file by the VFS's own reader (`csqlite_nowait_find_value`): its B-tree walked by
    /// hand (or the row looked for first where `near` says a read found it at the same data
    /// version: its leaf page, asked of the page cache with its overflow run), a chain of
    /// adjacent overflow pages read in one system call straight into the array, with no copy
    /// through SQLite's pages. Only on a connection that reads without waiting, in a read
    /// transaction that holds the file's lock (a statement or a BLOB read took it), which keeps
    /// any writer out meanwhile. Nil when that reader leaves the read to SQLite (no lock yet, a
    /// page that does not parse, a row not there, a value of another type: `readBlob` then
    /// reads it, or says what is wrong); throws when a page is not in the page cache.
    func readValueStraight(
        table: String, column: String, row: Int64, near place: CSQLiteNoWaitPlace = .init()
    ) throws(TileProviderError) -> StraightValue<[UInt8]>? {
        guard let (file, count, version) = try findValueStraight(table: table, column: column, row: row, near: place) else {
            return nil
        }
        var code = Int32(0)
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            code = csqlite_nowait_read_value(file, buffer.baseAddress)
            initialized = code == 0 ? count : 0
        }
        if code == CSQLITE_NOWAIT_WOULD_WAIT { throw .unreadable(path: path, errno: EAGAIN) }
        return code == 0 ? StraightValue(value: bytes, place: csqlite_nowait_found_place(file), dataVersion: version) : nil
    }

    /// `readValueStraight`'s value lent where it lies instead of copied
    /// (`csqlite_nowait_lend_value`): pieces of the file mapped read-only, each page checked to be
    /// in the page cache, the value's length, and, when `askingIfInMapping` (else false),
    /// whether every piece lies in the file's mapping (`csqlite_nowait_lent_in_mapping`: not when
    /// the cell's part lies in the row reader's own buffer, which its next read writes over). The pieces stay valid while this connection's
    /// read transaction lasts and it finds no other value: whoever holds them must keep the
    /// connection to itself meanwhile (`SQLiteReadersWithoutWaiting.lend`). Nil when that
    /// reader leaves the value to be read (as `readValueStraight`, or a value in more pieces
    /// than `lentPieceCapacity`); throws when a page is not in the page cache.
    func lendValueStraight(
        table: String, column: String, row: Int64, near place: CSQLiteNoWaitPlace = .init(), askingIfInMapping: Bool = false
    ) throws(TileProviderError) -> StraightValue<(pieces: UnsafeBufferPointer<iovec>, count: Int, inMapping: Bool)>? {
        guard let (file, count, version) = try findValueStraight(table: table, column: column, row: row, near: place) else {
            return nil
        }
        let pieces = csqlite_nowait_lend_value(file, lentPieces.baseAddress, Int32(lentPieces.count))
        if pieces == CSQLITE_NOWAIT_WOULD_WAIT { throw .unreadable(path: path, errno: EAGAIN) }
        guard pieces >= 0 else { return nil }
        let inMapping = askingIfInMapping && csqlite_nowait_lent_in_mapping(file, lentPieces.baseAddress, pieces) == 1
        return StraightValue(value: (UnsafeBufferPointer(rebasing: lentPieces[..<Int(pieces)]), count, inMapping),
                             place: csqlite_nowait_found_place(file), dataVersion: version)
    }

    /// The value's length as `csqlite_nowait_find_value` found it, the file it is to be read from,
    /// and the data version (read once: within the lock the find needs, it does not move).
    private func findValueStraight(
        table: String, column: String, row: Int64, near place: CSQLiteNoWaitPlace
    ) throws(TileProviderError) -> (file: OpaquePointer, count: Int, dataVersion: UInt32)? {
        guard let file = straightFile,
              let (root, index, version) = try straightPlace(table: table, column: column, dataVersion: dataVersion)
        else { return nil }
        let count = csqlite_nowait_find_value(file, root, place, row, index)
        if count == CSQLITE_NOWAIT_WOULD_WAIT { throw .unreadable(path: path, errno: EAGAIN) }
        return count >= 0 ? (file, count, version) : nil
    }

    /// Unmaps the file `lendValueStraight` lends from (mapped again at the next lend). Only while
    /// nothing it lent is in use.
    func unmapLentValues() {
        if let file = straightFile { csqlite_nowait_unmap(file) }
    }

    /// Takes pages of the file that the page cache was found to hold to stay there for `seconds`
    /// (`csqlite_nowait_trust_residency`): values lent from them meanwhile are not asked about
    /// again.
    func trustResidency(seconds: Double) {
        if let file = straightFile { csqlite_nowait_trust_residency(file, seconds) }
    }

    /// Pieces a lent value may have, at most: values up to about 2 MB in 4 KiB pages (one piece
    /// a page), within what one `writev` takes (IOV_MAX, 1024) beside an answer's head.
    static let lentPieceCapacity = 512

    /// `table`'s root page and `column`'s index in its records at data version `version`, the
    /// current one, and the version after: found by a query (which may take the file's lock,
    /// and so move the version) when the version (or the table or column) changed since last asked.
    private func straightPlace(
        table: String, column: String, dataVersion version: UInt32
    ) throws(TileProviderError) -> (root: UInt32, index: Int32, dataVersion: UInt32)? {
        if let known = straightLayout, known.dataVersion == version, known.table == table, known.column == column {
            return known.place.map { ($0.root, $0.index, version) }
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
        let after = dataVersion
        straightLayout = StraightLayout(table: table, column: column, dataVersion: after, place: place)
        return place.map { ($0.root, $0.index, after) }
    }

    /// A table's root page, a column's index, and how many hidden or generated columns it has.
    private static let straightPlaceQuery = """
        SELECT rootpage,
               (SELECT cid FROM pragma_table_xinfo(?1) WHERE name = ?2),
               (SELECT count(*) FROM pragma_table_xinfo(?1) WHERE hidden != 0)
        FROM sqlite_schema WHERE type = 'table' AND name = ?1
        """
}
