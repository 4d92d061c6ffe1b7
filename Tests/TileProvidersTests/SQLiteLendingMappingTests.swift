// The mapping values are lent from: a file whose pages mincore does not tell this process
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

@Suite struct SQLiteLendingMappingTests {
    /// A connection that reads without waiting, in a read transaction holding the file's lock.
    private func reader(_ file: String) throws -> SQLiteConnection {
        let connection = try SQLiteConnection(path: file, mode: .readOnlyWithoutWaiting)
        try connection.execute("BEGIN")
        try connection.withStatement("SELECT count(*) FROM sqlite_schema") { (statement) throws(TileProviderError) in
            _ = try statement.step()
        }
        return connection
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
        // Written back, and the paths SQLite checks looked up once (see SQLiteStraightReadsTests).
        fsync(descriptor)
        for companion in ["-journal", "-wal"] { _ = access(file + companion, F_OK) }
        func readBack() { _ = try? Data(contentsOf: URL(fileURLWithPath: file)) }

        // Root's file, which this thread may read, not write, as nobody (65534): to it, mincore
        // says the pages just dropped from the page cache are all there.
        let previous = clinux_set_thread_fsuid(65534)
        let evicted = PageCache.evict(descriptor: descriptor, size: size)
        readBack()
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
        readBack()
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
        let value = (0 ..< 37_000).map { UInt8(truncatingIfNeeded: $0 &* 7 &+ 3) }
        let hex = "x'" + value.map { String(format: "%02x", $0) }.joined() + "'"
        try fixture.execute("""
            PRAGMA page_size = 4096; CREATE TABLE t (id INTEGER PRIMARY KEY, v BLOB);
            INSERT INTO t VALUES (1, \(hex));
            """, on: file)
        func settle() {
            let descriptor = open(file, O_RDONLY | O_CLOEXEC)
            if descriptor >= 0 { fsync(descriptor); close(descriptor) }
            for companion in ["-journal", "-wal"] { _ = access(file + companion, F_OK) }
            _ = try? Data(contentsOf: URL(fileURLWithPath: file))
        }
        settle()
        let connection = try reader(file)
        #expect(try connection.lendValueStraight(table: "t", column: "v", row: 1)?.value.count == value.count, "mapped")
        try connection.execute("COMMIT")
        // Row 2's cell goes in the table's only page, its overflow pages at the file's end.
        try fixture.execute("INSERT INTO t VALUES (2, \(hex));", on: file)
        settle()
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
