internal import CSQLiteNoWait

/// Row ids a connection found by key (a tile's zoom, column and row), each with where its value
/// lay (the table leaf page it was found in, and its overflow run) and the data version it was
/// found at — SQLite moves a connection's data version whenever another connection has changed
/// the file since (a row deleted, rowids renumbered by a `VACUUM`, pages split or reused). A
/// row id and its place are used again only if the read they serve finds the same version,
/// which that read can tell only once it has the file's lock
/// (`MBTilesDatabase.lookupWithoutWaiting`): so a lookup of a known tile skips the index search
/// and the walk down the table's B-tree, and asks the page cache for its leaf and overflow run
/// at once, in this read transaction or a later one, and never serves a row of an older file.
/// Only found rows are kept, at most `capacity` (past that the table starts over): an index of
/// where tiles are, never their bytes.
///
/// Not locked: it belongs to one connection, which one thread uses at a time. For the same
/// reason its table is not checked for overlapping accesses at run time (no method of it calls
/// another while it changes the table).
final class RememberedRowIDs {
    private struct Entry {
        let row: Int64
        /// All 0: not known (the row was read through SQLite).
        let place: CSQLiteNoWaitPlace
    }

    @exclusivity(unchecked) private var rows: [Int: Entry] = [:]
    /// The data version every row in `rows` was found at.
    private var version: UInt32 = 0

    /// Rows kept at most (32 bytes each with its key, and the table's own).
    static let capacity = 65_536

    /// The row id found for `key`, where its value lay (all 0: not known), and the data version
    /// it was found at; nil when none is kept.
    func rowID(for key: Int) -> (row: Int64, place: CSQLiteNoWaitPlace, version: UInt32)? {
        rows[key].map { ($0.row, $0.place, version) }
    }

    /// Keeps `row` as `key`'s, its value found at `place` (all 0: not known) at `dataVersion`
    /// (rows found at another version are let go).
    func remember(_ row: Int64, at place: CSQLiteNoWaitPlace = .init(), for key: Int, dataVersion: UInt32) {
        if dataVersion != version || rows.count >= Self.capacity {
            rows.removeAll(keepingCapacity: true)
            version = dataVersion
        }
        rows[key] = Entry(row: row, place: place)
    }

    /// Lets every row go (a read found the file changed).
    func removeAll() { rows.removeAll(keepingCapacity: true) }

    /// Lets `key`'s row go (a read by it failed: a page not in the page cache, a row gone).
    func forget(_ key: Int) { rows[key] = nil }

    /// Rows kept now.
    var count: Int { rows.count }
}

extension CSQLiteNoWaitPlace {
    /// Whether `other` names the same pages.
    func isSame(as other: CSQLiteNoWaitPlace) -> Bool {
        leaf == other.leaf && overflow == other.overflow && overflow_pages == other.overflow_pages
    }
}
