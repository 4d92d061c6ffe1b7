// Values read straight from the database file (the VFS's own B-tree reader), against SQLite's
// own reads of the same rows.

#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import TileProviders
import CSQLiteNoWait

@Suite(.timeLimit(.minutes(2))) struct SQLiteStraightReadsTests: StraightReadTesting {
    /// A table of rows of values of many lengths: a NULL and an integer among them, a TEXT, and
    /// an INTEGER PRIMARY KEY before the value column (held as NULL in each record).
    private static let layout = "CREATE TABLE t (id INTEGER PRIMARY KEY, tag INTEGER, v BLOB, after TEXT);"

    /// Lengths around the edges of a page's own share of a row and of its overflow pages.
    private static func lengths(pageSize: Int) -> [Int] {
        let near = [0, 1, 2, 100, pageSize / 4, pageSize - 40, pageSize - 35, pageSize - 30, pageSize, pageSize + 1,
                    2 * pageSize - 8, 2 * pageSize + 3, 10 * pageSize + 7, 300_000]
        return near.filter { $0 >= 0 }
    }

    /// A database at `path` with pages of `pageSize` bytes and `rows` rows (row id, value length).
    private func write(_ fixture: MBTilesFixture, _ name: String, pageSize: Int, rows: [(Int64, Int)]) throws -> String {
        let file = fixture.path(name)
        var sql = "PRAGMA page_size = \(pageSize); " + Self.layout + "BEGIN;"
        for (id, length) in rows {
            sql += "INSERT INTO t VALUES (\(id), \(length), \(Self.hex(Self.value(row: Int(id), length: length))), 'z');"
        }
        try fixture.execute(sql + "COMMIT;", on: file)
        return file
    }

    /// Row `id`'s `v` as SQLite reads it (nil: no such row, or not a BLOB or TEXT).
    private func sqlite(_ file: String, _ id: Int64) throws -> [UInt8]? {
        let connection = try SQLiteConnection(path: file, mode: .readOnly)
        return try connection.withStatement("SELECT v, typeof(v) FROM t WHERE id = ?1") { (statement) throws(TileProviderError) in
            try statement.bind(Int(id), at: 1)
            guard try statement.step(), ["blob", "text"].contains(statement.text(1)) else { return nil }
            return statement.blob(0)
        }
    }

    /// Row `id` read straight (`settled`).
    private func straight(_ connection: SQLiteConnection, _ id: Int64) throws -> [UInt8]? {
        try settled(connection) { try connection.readValueStraight(table: "t", column: "v", row: id)?.value }
    }

    /// Row `id` lent where it lies (`lendValueStraight`), its pieces joined, and the same bytes
    /// copied by `csqlite_nowait_copy_lent` from every offset tried; nil when it was not lent.
    private func lent(_ connection: SQLiteConnection, _ id: Int64) throws -> [UInt8]? {
        guard let (pieces, count, _) = try lendSettled(connection, id) else { return nil }
        var joined: [UInt8] = []
        for piece in pieces { joined += UnsafeRawBufferPointer(start: piece.iov_base, count: piece.iov_len) }
        #expect(joined.count == count, "row \(id): the pieces add up to the value's length")
        for offset in Set([0, 1, count / 3, count - 1, count].filter { $0 >= 0 && $0 <= count }) {
            let copied = [UInt8](unsafeUninitializedCapacity: count - offset) { buffer, initialized in
                let code = csqlite_nowait_copy_lent(pieces.baseAddress, Int32(pieces.count), offset, buffer.baseAddress,
                                                    count - offset)
                initialized = code == 0 ? count - offset : 0
            }
            #expect(copied.elementsEqual(joined[offset...]), "row \(id): copied from byte \(offset)")
        }
        return joined
    }

    /// Row `id` lent (`settled`).
    private func lendSettled(
        _ connection: SQLiteConnection, _ id: Int64
    ) throws -> (pieces: UnsafeBufferPointer<iovec>, count: Int, inMapping: Bool)? {
        try settled(connection) { try connection.lendValueStraight(table: "t", column: "v", row: id)?.value }
    }

    /// Every length lent where it lies is what SQLite reads: the part in the row's cell, then
    /// a piece an overflow page; a value in more pieces than a lent value holds is not lent.
    @Test(arguments: [512, 1024, 4096, 65536])
    func everyLengthLendsAsSQLiteReadsIt(pageSize: Int) throws {
        let fixture = try MBTilesFixture()
        let lengths = Self.lengths(pageSize: pageSize)
        let rows = lengths.enumerated().map { (Int64($0.offset * 3 - 5), $0.element) }
        let file = try write(fixture, "lengths.db", pageSize: pageSize, rows: rows)
        let connection = try reader(file)
        let before = csqlite_nowait_values_lent()
        var expectedLent = 0
        for (id, length) in rows {
            let pieces = 2 + length / (pageSize - 4)  // at most: the cell's part, and a piece a page
            let bytes = try lent(connection, id)
            if pieces <= SQLiteConnection.lentPieceCapacity {
                expectedLent += 1
                let same = bytes == Self.value(row: Int(id), length: length)
                #expect(same, "row \(id), \(length) bytes, pages of \(pageSize)")
            } else if let bytes {
                #expect(bytes == Self.value(row: Int(id), length: length), "row \(id): lent whole though long")
                expectedLent += 1
            }
        }
        #expect(csqlite_nowait_values_lent() - before == expectedLent)
    }

    /// A file cut short under a lent value (a `truncate` by something other than SQLite, which
    /// never shortens a file another connection holds a lock on): copying it faults, and the
    /// fault is turned into a failed copy, not a signal that ends the process.
    @Test func aLentValueWhoseFileIsCutShortFailsToCopy() throws {
        let fixture = try MBTilesFixture()
        let file = try write(fixture, "cut.db", pageSize: 4096, rows: [(1, 200_000)])
        let connection = try reader(file)
        let found = try #require(try lendSettled(connection, 1))
        #expect(found.count == 200_000)
        try #require(truncate(file, 4096) == 0)
        let faults = csqlite_nowait_faults_caught()
        let copied = [UInt8](unsafeUninitializedCapacity: found.count) { buffer, initialized in
            #expect(csqlite_nowait_copy_lent(found.pieces.baseAddress, Int32(found.pieces.count), 0, buffer.baseAddress,
                                             found.count) == -1)
            initialized = 0
        }
        #expect(copied.isEmpty)
        #expect(csqlite_nowait_faults_caught() - faults == 1, "the fault caught")
        // The kernel, copying the pieces into a socket, fails the write instead (no signal).
        var ends: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &ends) == 0)
        defer { close(ends[0]); close(ends[1]) }
        _ = fcntl(ends[0], F_SETFL, fcntl(ends[0], F_GETFL, 0) | O_NONBLOCK)
        let written = writev(ends[0], found.pieces.baseAddress, Int32(found.pieces.count))
        #expect(written == -1 && errno == EFAULT, "writev: \(written)")
        let after = try? connection.lendValueStraight(table: "t", column: "v", row: 1)
        #expect(after == nil, "the row's pages are past the file's end now: not lent")
    }

    /// A row is looked for first in the leaf page named (where a read found it before), and
    /// found by the walk from the table's root when that page does not hold it: a leaf of other
    /// rows, an interior page, an overflow page, a page past the file's end. What a named page
    /// holds is taken as it is: a leaf of another table with a row of that id gives that row's
    /// value, which is why a caller names a leaf only while the file has not changed.
    @Test func aRowIsLookedForInTheLeafNamedThenFromTheRoot() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("leaves.db")
        // Table t: rows 1 to 400 of 300 bytes (leaves of about 3 rows a 1 KiB page, two levels
        // of interior pages) and row 1000 of 5000 bytes (overflow pages); table u: row 7.
        var sql = "PRAGMA page_size = 1024; " + Self.layout + "CREATE TABLE u (id INTEGER PRIMARY KEY, tag INTEGER, v BLOB, after TEXT); BEGIN;"
        for id in 1 ... 400 { sql += "INSERT INTO t VALUES (\(id), 0, \(Self.hex(Self.value(row: id, length: 300))), 'z');" }
        sql += "INSERT INTO t VALUES (1000, 0, \(Self.hex(Self.value(row: 1000, length: 5000))), 'z');"
        sql += "INSERT INTO u VALUES (7, 0, x'75757575', 'z'); COMMIT;"
        try fixture.execute(sql, on: file)
        let connection = try reader(file)
        func find(_ id: Int64, near leaf: UInt32) throws -> (bytes: [UInt8], leaf: UInt32)? {
            try settled(connection) {
                try connection.readValueStraight(table: "t", column: "v", row: id, near: CSQLiteNoWaitPlace(leaf: leaf, overflow: 0, overflow_pages: 0))
                    .map { ($0.value, $0.place.leaf) }
            }
        }
        let first = try #require(try find(1, near: 0))
        let last = try #require(try find(400, near: 0))
        let long = try #require(try find(1000, near: 0))
        #expect(first.bytes == Self.value(row: 1, length: 300) && long.bytes == Self.value(row: 1000, length: 5000))
        #expect(first.leaf != last.leaf && first.leaf > 0 && last.leaf > 0, "rows 1 and 400 lie in two leaves")
        let root = try connection.withStatement("SELECT rootpage FROM sqlite_schema WHERE name = 't'") {
            (statement) throws(TileProviderError) in try statement.step() ? UInt32(statement.int(0)) : 0
        }
        let otherTable = try connection.withStatement("SELECT rootpage FROM sqlite_schema WHERE name = 'u'") {
            (statement) throws(TileProviderError) in try statement.step() ? UInt32(statement.int(0)) : 0
        }
        let pages = UInt32(try #require(try FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) / 1024)
        // The leaf it is in: found there.
        let again = try #require(try find(1, near: first.leaf))
        #expect(again.bytes == first.bytes && again.leaf == first.leaf)
        // Pages that do not hold it: found from the root, in its own leaf.
        for wrong in [last.leaf, root, long.leaf + 1, pages + 10] {
            let found = try #require(try find(1, near: wrong), "near page \(wrong)")
            #expect(found.bytes == first.bytes && found.leaf == first.leaf, "near page \(wrong)")
        }
        // Table u's only page (a leaf) holds a row 7: named, it is taken as found.
        let seven = try #require(try find(7, near: 0))
        #expect(seven.bytes == Self.value(row: 7, length: 300))
        let elsewhere = try #require(try find(7, near: otherTable))
        #expect(elsewhere.bytes == Array("uuuu".utf8) && elsewhere.leaf == otherTable, "the named leaf is looked in first")
    }

    @Test(arguments: [512, 1024, 4096, 65536])
    func everyLengthReadsAsSQLiteReadsIt(pageSize: Int) throws {
        let fixture = try MBTilesFixture()
        let lengths = Self.lengths(pageSize: pageSize)
        let rows = lengths.enumerated().map { (Int64($0.offset * 3 - 5), $0.element) }  // negative row ids too
        let file = try write(fixture, "lengths.db", pageSize: pageSize, rows: rows)
        let connection = try reader(file)
        let before = csqlite_nowait_values_read()
        for (id, length) in rows {
            let same = try straight(connection, id) == Self.value(row: Int(id), length: length)  // (not printed)
            #expect(same, "row \(id), \(length) bytes, pages of \(pageSize)")
        }
        #expect(csqlite_nowait_values_read() - before == rows.count, "each read straight, none left to SQLite")
    }

    /// 3,000 rows on pages of 512 bytes: a B-tree three levels deep, its interior pages kept
    /// while the lock is held.
    @Test func aDeepTreeFindsEveryRow() throws {
        let fixture = try MBTilesFixture()
        let rows = (1 ... 3000).map { (Int64($0) * 1_000_003, $0 % 7 == 0 ? 700 : 40) }
        let file = try write(fixture, "deep.db", pageSize: 512, rows: rows)
        let connection = try reader(file)
        for (id, length) in rows {
            let same = try straight(connection, id) == Self.value(row: Int(id), length: length)
            #expect(same, "row \(id)")
        }
        #expect(try straight(connection, 5) == nil, "a row not there is left to SQLite")
    }

    /// Chains through freed pages (not adjacent), and pages with bytes reserved at their end.
    @Test func chainsThatJumpAndReservedBytesReadAsSQLiteReadsThem() throws {
        try #require(MBTilesFixture.sqlite3Path != nil, "the sqlite3 command-line tool (apt-get install sqlite3)")
        let fixture = try MBTilesFixture()
        let rows = (1 ... 12).map { (Int64($0), 9_000 + $0 * 613) }
        let jumping = try write(fixture, "jumping.db", pageSize: 1024, rows: rows)
        try fixture.execute("""
            DELETE FROM t WHERE id IN (2, 5, 9);
            INSERT INTO t VALUES (20, 0, randomblob(40000), 'z');
            INSERT INTO t VALUES (21, 0, randomblob(3000), 'z');
            UPDATE t SET v = randomblob(25000) WHERE id = 7;
            """, on: jumping)
        let reserved = try write(fixture, "reserved.db", pageSize: 1024, rows: rows)
        #expect(try MBTilesFixture.sqlite3(reserved, ".filectrl reserve_bytes 32", "VACUUM", ".filectrl reserve_bytes")
                    .hasSuffix("32\n"), "32 bytes reserved at the end of each page")
        for file in [jumping, reserved] {
            let connection = try reader(file)
            for id in Int64(1) ... 21 {
                let expected = try sqlite(file, id)
                let same = try straight(connection, id) == expected
                #expect(same, "row \(id) of \(file)")
                let lentSame = try lent(connection, id) == expected
                #expect(lentSame, "row \(id) of \(file), lent")
            }
        }
    }

    /// What the reader leaves to SQLite: a NULL or an integer (SQLite's BLOB handle refuses
    /// them), a column a record does not hold (added later), a reader without the lock.
    @Test func whatItDoesNotReadIsLeftToSQLite() throws {
        let fixture = try MBTilesFixture()
        let file = try write(fixture, "shapes.db", pageSize: 4096, rows: [(1, 10), (2, 5000)])
        try fixture.execute("""
            INSERT INTO t VALUES (3, 0, NULL, 'z');
            INSERT INTO t VALUES (4, 0, 42, 'z');
            INSERT INTO t VALUES (5, 0, 'some text', 'z');
            ALTER TABLE t ADD COLUMN added BLOB;
            """, on: file)
        let connection = try reader(file)
        #expect(try straight(connection, 3) == nil)
        #expect(try straight(connection, 4) == nil)
        #expect(try straight(connection, 5) == Array("some text".utf8), "TEXT reads as its bytes")
        #expect(try connection.readValueStraight(table: "t", column: "added", row: 1) == nil, "a column added later")
        #expect(try connection.readValueStraight(table: "t", column: "missing", row: 1) == nil)
        #expect(try connection.readValueStraight(table: "nope", column: "v", row: 1) == nil)

        let outside = try SQLiteConnection(path: file, mode: .readOnlyWithoutWaiting)
        #expect(try outside.readValueStraight(table: "t", column: "v", row: 1) == nil,
                "outside a transaction the lock goes with each statement")
        let plain = try SQLiteConnection(path: file, mode: .readOnly)
        try plain.execute("BEGIN; SELECT count(*) FROM t;")
        #expect(try plain.readValueStraight(table: "t", column: "v", row: 1) == nil, "not a connection of the VFS")
    }

    /// A file changed between transactions (a `VACUUM` moves every page) is read at its new
    /// places: the table's root is found again for the new data version.
    @Test func aFileVacuumedBetweenTransactionsReadsItsNewPages() throws {
        let fixture = try MBTilesFixture()
        let rows = (1 ... 40).map { (Int64($0), 3000 + $0) }
        let file = try write(fixture, "moving.db", pageSize: 1024, rows: rows)
        let connection = try reader(file)
        let before = try straight(connection, 10) == Self.value(row: 10, length: 3010)
        #expect(before)
        try connection.execute("COMMIT")
        try fixture.execute("""
            DELETE FROM t WHERE id < 30;
            CREATE TABLE before (x BLOB);
            INSERT INTO before VALUES (randomblob(20000));
            VACUUM;
            """, on: file)
        settle(file)
        try connection.execute("BEGIN")
        try connection.withStatement("SELECT count(*) FROM sqlite_schema") { (statement) throws(TileProviderError) in
            _ = try statement.step()
        }
        #expect(try straight(connection, 10) == nil, "deleted")
        let after = try straight(connection, 35) == Self.value(row: 35, length: 3035)
        #expect(after)
    }

    /// Damaged pages (eight bytes overwritten in one page at a time, each page in turn, the
    /// same every run): the reader never crashes, and what it reads is what SQLite reads, when
    /// SQLite reads it at all (it checks more than the reader, which reads on where it can).
    @Test func damagedPagesNeverGiveOtherBytesThanSQLite() throws {
        let fixture = try MBTilesFixture()
        let rows = (1 ... 60).map { (Int64($0), $0 % 5 == 0 ? 6000 : 300) }
        let pristine = try write(fixture, "pristine.db", pageSize: 512, rows: rows)
        let original = try [UInt8](Data(contentsOf: URL(fileURLWithPath: pristine)))
        let pages = original.count / 512
        var compared = 0
        for trial in 0 ..< 2 * pages {
            var damaged = original
            let page = 1 + trial % (pages - 1)  // not the header's page
            for k in 0 ..< 8 { damaged[page * 512 + (trial * 37 + k * 61) % 512] = UInt8(truncatingIfNeeded: trial * 29 + k * 83) }
            let file = fixture.path("damaged-\(trial).db")
            try Data(damaged).write(to: URL(fileURLWithPath: file))
            let connection = try reader(file)
            for (id, _) in rows {
                // Read once: damage can make a read fail every time.
                guard let read = try? connection.readValueStraight(table: "t", column: "v", row: id)?.value,
                      let expected = try? sqlite(file, id)
                else { continue }
                compared += 1
                let same = read == expected
                #expect(same, "row \(id), page \(page) damaged (trial \(trial))")
                if let lent = try? connection.lendValueStraight(table: "t", column: "v", row: id) {
                    var joined: [UInt8] = []
                    for piece in lent.value.pieces { joined += UnsafeRawBufferPointer(start: piece.iov_base, count: piece.iov_len) }
                    let lentSame = joined == expected
                    #expect(lentSame, "row \(id) lent, page \(page) damaged (trial \(trial))")
                }
            }
        }
        #expect(compared > rows.count, "rows read both ways: \(compared)")
    }
}
#endif
