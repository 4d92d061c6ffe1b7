// A file whose pages mincore does not tell this process about (one it neither owns nor may
// write: the kernel then says every page is in the page cache) is never lent from its mapping;
// its values are read with preadv2 (RWF_NOWAIT), which that cannot fool.

#if os(Linux)
import CLinux
import CSQLiteNoWait
import Foundation
import Glibc
import Testing
@testable import TileProviders

@Suite struct SQLiteLendingOwnerTests {
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
}
#endif
