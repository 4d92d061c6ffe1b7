// The mapping values are lent from: a row's leaf and overflow run asked of the page cache
// together; a file whose pages mincore does not tell this process
// about (one it neither owns nor may write: the kernel then says every page is in the page
// cache) is never lent from, its values are read with preadv2 (RWF_NOWAIT), which that cannot
// fool; and a file that grew since it was mapped is mapped again without lending pieces of the
// mapping let go.

#if os(Linux)
import CLinux
import CSQLiteNoWait
import Foundation
import Glibc
import Testing
@testable import TileProviders

@Suite struct SQLiteLendingMappingTests: StraightReadTesting {
    /// Where a lent value lies (its row's leaf, and its overflow chain's first page and length)
    /// is told with it; lent again near that place, the leaf and the run are asked of the page
    /// cache in one mincore, and a page of the run out of the page cache still makes the read
    /// wait. A place whose run is another row's is asked for the value's run on its own.
    @Test func aLeafAndItsOverflowRunAreAskedOfThePageCacheTogether() throws {
        let fixture = try MBTilesFixture()
        let length = 37_000  // 489 bytes in the leaf's cell, the rest in nine overflow pages of 4,092
        let file = fixture.path("runs.db")
        var sql = "PRAGMA page_size = 4096; CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB); BEGIN;"
        for row in 1 ... 20 { sql += "INSERT INTO t VALUES (\(row), \(Self.hex(Self.value(row: row, length: length))));" }
        try fixture.execute(sql + "COMMIT;", on: file)
        readBack(file)
        let connection = try reader(file)
        func lend(_ row: Int64, near place: CSQLiteNoWaitPlace = .init()) throws -> (bytes: [UInt8], place: CSQLiteNoWaitPlace)? {
            try connection.lendValueStraight(table: "t", column: "v", row: row, near: place).map { found in
                var joined: [UInt8] = []
                for piece in found.value.pieces { joined += UnsafeRawBufferPointer(start: piece.iov_base, count: piece.iov_len) }
                return (joined, found.place)
            }
        }
        let first = try #require(try settled(connection) { try lend(10) })
        let other = try #require(try settled(connection) { try lend(11) })
        #expect(first.bytes == Self.value(row: 10, length: length))
        // The run told is the value's chain, as the file's own links run: adjacent pages here.
        let pages = try Data(contentsOf: URL(fileURLWithPath: file))
        func chain(from page: UInt32) -> (count: UInt32, adjacent: Bool) {
            var count: UInt32 = 0
            var adjacent = true
            var page = page
            while page != 0, count < 1000 {
                count += 1
                let at = Int(page - 1) * 4096
                let next = pages[at ..< at + 4].reduce(0) { $0 << 8 | UInt32($1) }
                adjacent = adjacent && (next == 0 || next == page + 1)
                page = next
            }
            return (count, adjacent)
        }
        #expect(first.place.leaf > 0 && first.place.overflow > 0 && first.place.overflow_pages == 9)
        #expect(chain(from: first.place.overflow) == (first.place.overflow_pages, true))
        // Near its place: the run taken as asked with the leaf.
        var asked = csqlite_nowait_runs_asked_with_leaf()
        let again = try #require(try lend(10, near: first.place))
        #expect(again.bytes == first.bytes && again.place.isSame(as: first.place))
        #expect(csqlite_nowait_runs_asked_with_leaf() - asked == 1)
        // Near places whose run is not the value's (one that starts a page later, within the
        // span asked at once; row 11's): the value's own run asked for on its own.
        asked = csqlite_nowait_runs_asked_with_leaf()
        for run in [(first.place.overflow + 1, first.place.overflow_pages), (other.place.overflow, other.place.overflow_pages)] {
            let mixed = CSQLiteNoWaitPlace(leaf: first.place.leaf, overflow: run.0, overflow_pages: run.1)
            #expect(try lend(10, near: mixed)?.bytes == first.bytes)
        }
        #expect(csqlite_nowait_runs_asked_with_leaf() == asked)
        // The file from the run's last page on dropped from the page cache (the reader's
        // mapping let go first, which would keep it): near the place or not, the read must wait.
        connection.unmapLentValues()
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let last = Int(first.place.overflow + first.place.overflow_pages - 2) * 4096
        try #require(PageCache.evict(descriptor: descriptor, size: pages.count, from: last),
                     "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(throws: TileProviderError.self, "mapped again, the run asked for on its own") { _ = try lend(10, near: first.place) }
        #expect(throws: TileProviderError.self, "the run asked for with the leaf") { _ = try lend(10, near: first.place) }
        #expect(try settled(connection) { try lend(10, near: first.place) }?.bytes == first.bytes, "read back: lent")
    }

    @Test func aFileMincoreDoesNotTellOfIsReadNotLent() throws {
        try #require(geteuid() == 0, "acting as another user on one thread (setfsuid) needs root")
        let fixture = try MBTilesFixture()
        try #require(chmod(fixture.folder, 0o755) == 0)
        let file = fixture.path("roots.db")
        try fixture.execute("""
            PRAGMA page_size = 4096; CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB);
            INSERT INTO t VALUES (1, randomblob(37000));
            """, on: file)
        try #require(chmod(file, 0o644) == 0)
        let expected = try SQLiteConnection(path: file, mode: .readOnly).readBlob(table: "t", column: "v", row: 1)
        let descriptor = open(file, O_RDONLY | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        let size = expected.count + 3 * 4096
        settle(file)

        // Root's file, which this thread may read, not write, as nobody (65534): to it, mincore
        // says the pages just dropped from the page cache are all there.
        let previous = clinux_set_thread_fsuid(65534)
        let evicted = PageCache.evict(descriptor: descriptor, size: size)
        readBack(file)
        let asNobody = Result { () throws -> (lent: Bool, read: [UInt8]?) in
            let nobody = try reader(file)
            let lent = try nobody.lendValueStraight(table: "t", column: "v", row: 1) != nil
            return (lent, try nobody.readValueStraight(table: "t", column: "v", row: 1)?.value)
        }
        _ = clinux_set_thread_fsuid(previous)

        #expect(!evicted, "mincore answers every page is there (the kernel's rule this guards against)")
        let found = try asNobody.get()
        #expect(!found.lent, "not lent from the mapping")
        #expect(found.read == expected, "read straight, with preadv2")
        // The same file, its owner asking: mincore tells, and the value is lent.
        #expect(PageCache.evict(descriptor: descriptor, size: size), "the owner is told the truth")
        readBack(file)
        let owner = try reader(file)
        let lent = try #require(try owner.lendValueStraight(table: "t", column: "v", row: 1))
        #expect(lent.value.count == expected.count)
    }

    /// A value whose cell lies in a page the old mapping holds and whose overflow pages lie past
    /// it (the file grew between two read transactions): the file is mapped again, and that
    /// value read, not lent with a piece of the mapping let go; lent the next time.
    @Test func aFileThatGrewIsMappedAgainBeforeAnythingIsLentFromIt() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("grows.db")
        let value = Self.value(row: 1, length: 37_000)
        let hex = Self.hex(value)
        try fixture.execute("""
            PRAGMA page_size = 4096; CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB);
            INSERT INTO t VALUES (1, \(hex));
            """, on: file)
        readBack(file)
        let connection = try reader(file)
        #expect(try connection.lendValueStraight(table: "t", column: "v", row: 1)?.value.count == value.count, "mapped")
        try connection.execute("COMMIT")
        // Row 2's cell goes in the table's only page, its overflow pages at the file's end.
        try fixture.execute("INSERT INTO t VALUES (2, \(hex));", on: file)
        settle(file)
        readBack(file)
        try connection.execute("BEGIN")
        try connection.withStatement("SELECT count(*) FROM t") { (statement) throws(TileProviderError) in _ = try statement.step() }
        #expect(try connection.lendValueStraight(table: "t", column: "v", row: 2) == nil, "not lent across the new mapping")
        #expect(try connection.readValueStraight(table: "t", column: "v", row: 2)?.value == value, "read instead")
        let lent = try #require(try connection.lendValueStraight(table: "t", column: "v", row: 2), "lent the next time")
        var joined: [UInt8] = []
        for piece in lent.value.pieces { joined += UnsafeRawBufferPointer(start: piece.iov_base, count: piece.iov_len) }
        #expect(joined == value)
    }
}
#endif
