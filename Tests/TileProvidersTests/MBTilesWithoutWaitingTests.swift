// Reading MBTiles tiles on an event loop: only from the page cache, never waiting on a lock.

#if os(Linux)
import Testing
import TileGeometry
@testable import TileProviders
import CSQLite
import CSQLiteNoWait
import Glibc
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct MBTilesWithoutWaitingTests {
    /// The bytes (copied if they were lent), or nil when the read was anything but a tile.
    private func bytes(_ found: TileWithoutWaiting) -> [UInt8]? {
        if case .tile(let bytes, _, _) = owned(found) { return bytes }
        return nil
    }

    private func version(_ found: TileWithoutWaiting) -> TileContentVersion? {
        if case .tile(_, let version, _) = owned(found) { return version }
        return nil
    }

    private func mustWait(_ found: TileWithoutWaiting) -> Bool {
        if case .mustWait = found { return true }
        return false
    }

    private func isNoTile(_ found: TileWithoutWaiting) -> Bool {
        if case .noTile = found { return true }
        return false
    }

    /// `tile` read without waiting where it should be there to read: a read that must wait is
    /// asked again, every 10 ms for up to 2 s, after a read by a thread that may wait (as the
    /// server does). The kernel may refuse a `RWF_NOWAIT` read of a page it holds for a moment
    /// (a folio not wholly up to date and locked by writeback, another read, or the read-ahead);
    /// and once another connection's journal was unlinked while something had it open, the path
    /// has no entry in the kernel's caches, so the hot-journal check cannot tell without a lookup
    /// that may wait. Each must-wait is the server's right answer, not a wrong tile; a reader
    /// that never reads again still fails the test.
    private func settled(
        _ provider: MBTilesTileProvider, _ tile: TileCoordinate, read: (() -> TileWithoutWaiting)? = nil
    ) -> TileWithoutWaiting {
        let read = read ?? { provider.tileWithoutWaiting(for: TileRequest(tile: tile)) }
        var found = read()
        for attempt in 0 ..< 200 where mustWait(found) {
            // As the server does: a must-wait goes to a thread that may wait, which reads the
            // pages back (again now and then: these machines page idle page cache out).
            if attempt % 20 == 0 { _ = try? provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z) }
            usleep(10_000)
            found = read()
        }
        return owned(found)
    }

    /// `found`, its bytes copied and ended if they were lent (`.lent`: the reader is kept until
    /// then), as a `.tile` of the same version.
    private func owned(_ found: TileWithoutWaiting) -> TileWithoutWaiting {
        guard case .lent(let lent, let version, let lastModified) = found else { return found }
        defer { lent.end() }
        guard let bytes = lent.copy() else { return .mustWait }
        return .tile(bytes, version: version, lastModified: lastModified)
    }

    @Test func everyTileReadWithoutWaitingIsTheOneTileForGives() throws {
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 3)
        let file = try fixture.write("pyramid.mbtiles", tiles: tiles)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600))
        for tile in tiles {
            let found = settled(provider, tile)
            #expect(bytes(found) == MBTilesFixture.bytes(for: tile), "\(tile), just written: in the page cache")
            guard case .tile(let expected)? = try? provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z) else {
                Issue.record("\(tile) missing from tileFor")
                continue
            }
            #expect(bytes(found) == expected.data)
            if case .tile(_, _, let lastModified) = found { #expect(lastModified == expected.lastModified) }
        }
        #expect(isNoTile(provider.tileWithoutWaiting(for: TileRequest(x: 0, y: 0, zoom: 4))),
                "a tile the file does not hold is no tile")
        #expect(isNoTile(provider.tileWithoutWaiting(for: TileRequest(x: 0, y: 2, zoom: 1))), "a tile outside the grid is no tile")
        #expect(provider.readersWithoutWaitingProblem == nil)
    }

    /// A deduplicating layout, `tiles` a view over `map` and `images`, is read through the view.
    @Test func aTilesViewIsReadWithoutWaitingToo() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("view.mbtiles")
        try fixture.execute(MBTilesFixture.deduplicatingLayout + """
            CREATE UNIQUE INDEX map_index ON map (zoom_level, tile_column, tile_row);
            CREATE UNIQUE INDEX images_id ON images (tile_id);
            INSERT INTO map VALUES (1, 0, 1, 'a'), (1, 1, 1, 'a');
            INSERT INTO images VALUES ('a', x'89504E470D0A1A0A01');
            """, on: file)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600))
        #expect(bytes(settled(provider, TileCoordinate(z: 1, x: 0, y: 0))) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])
        #expect(bytes(settled(provider, TileCoordinate(z: 1, x: 1, y: 0))) == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 1])
        #expect(isNoTile(provider.tileWithoutWaiting(for: TileRequest(x: 0, y: 1, zoom: 1))), "a tile the map does not hold is no tile")
    }

    /// A file whose tiles have no index would be scanned whole for each tile: never on a loop.
    @Test func aFileWithoutAnIndexIsReadOnlyByThreadsThatMayWait() throws {
        let fixture = try MBTilesFixture()
        let file = fixture.path("unindexed.mbtiles")
        try fixture.execute("""
            CREATE TABLE metadata (name TEXT, value TEXT);
            CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
            INSERT INTO tiles VALUES (0, 0, 0, x'89504E470D0A1A0A02');
            """, on: file)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600))
        #expect(mustWait(provider.tileWithoutWaiting(for: TileRequest(x: 0, y: 0, zoom: 0))))
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) != .noTile)
        #expect(provider.readersWithoutWaitingProblem?.contains("no index") == true,
                "\(provider.readersWithoutWaitingProblem ?? "no problem named")")
    }

    /// Tiles larger than a page (their bytes in overflow pages) read whole, one after another
    /// on one reader's BLOB handle; a tile whose pages left the page cache fails the read
    /// mid-transaction, which ends it (its lock too: a writer that will not wait gets in), and
    /// the reader reads again once a thread that may wait has read the pages back. (The first
    /// tile was lent from the file mapped, whose pages the kernel keeps while they are mapped:
    /// the last tiles' half of the file is dropped.)
    @Test func largeTilesAndAReadThatFailsMidTransaction() throws {
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 2)
        let file = try fixture.write("large.mbtiles", tiles: tiles, length: 60_000)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               readTransactionLifetime: .seconds(3600))
        let first = tiles[0], last = tiles[tiles.count - 1]
        #expect(bytes(settled(provider, first)) == MBTilesFixture.bytes(for: first, length: 60_000))
        let cold = try #require(PageCache.afterEviction(evict: { PageCache.evict(path: file, fromFraction: 0.5) },
                                                        read: { owned(provider.tileWithoutWaiting(for: TileRequest(tile: last))) },
                                                        until: mustWait),
                                "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(mustWait(cold), "its overflow pages were dropped")
        let writer = try SQLiteConnection(path: file, mode: .readWriteCreate)
        try writer.execute("PRAGMA busy_timeout = 0")
        try writer.execute("UPDATE metadata SET value = 'written' WHERE name = 'name'")  // no reader holds a lock now
        for tile in tiles { _ = try provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z) }  // the workers read it back
        for tile in tiles {
            #expect(bytes(settled(provider, tile)) == MBTilesFixture.bytes(for: tile, length: 60_000), "\(tile)")
        }
    }

    /// A tile read without waiting, and what reading it took on this thread: system calls
    /// (preadv2), overflow pages lent to SQLite, values read straight from the file. Counted
    /// for a read that found the tile at its first attempt: a must-wait (the kernel refusing a
    /// page for a moment, see `settled`) forgets the tile's row (`RememberedRowIDs.forget`), so
    /// the attempt after it finds the row through the index, a statement that takes the file's
    /// lock first, and reads by another path than the one measured. Such a read is made again
    /// (the retry has remembered the row), up to 20 times; then its counts are asserted as
    /// they are.
    private func counted(
        _ provider: MBTilesTileProvider, _ tile: TileCoordinate
    ) -> (found: TileWithoutWaiting, reads: Int, lent: Int, straight: Int, valuesLent: Int) {
        var outcome = countedOnce(provider, tile)
        for _ in 0 ..< 20 where outcome.attempts > 1 { outcome = countedOnce(provider, tile) }
        return (outcome.found, outcome.reads, outcome.lent, outcome.straight, outcome.valuesLent)
    }

    /// `counted`'s read, made once (`settled`), with its attempts.
    private func countedOnce(
        _ provider: MBTilesTileProvider, _ tile: TileCoordinate
    ) -> (found: TileWithoutWaiting, reads: Int, lent: Int, straight: Int, valuesLent: Int, attempts: Int) {
        var reads = 0, lent = 0, straight = 0, valuesLent = 0  // by the last read only
        var attempts = 0
        let found = settled(provider, tile) {
            attempts += 1
            let before = (csqlite_nowait_reads(), csqlite_nowait_pages_lent(), csqlite_nowait_values_read(),
                          csqlite_nowait_values_lent())
            defer {
                (reads, lent, straight, valuesLent) = (
                    csqlite_nowait_reads() - before.0, csqlite_nowait_pages_lent() - before.1,
                    csqlite_nowait_values_read() - before.2, csqlite_nowait_values_lent() - before.3)
            }
            return provider.tileWithoutWaiting(for: TileRequest(tile: tile))
        }
        return (found, reads, lent, straight, valuesLent, attempts)
    }

    /// The tiles of zooms 0 and 1, each `chainLength` bytes, in a file of pages of `pageSize`
    /// bytes, and a provider with one reader that never waits.
    private func chains(
        pageSize: Int, transactionLifetime: Duration
    ) throws -> (MBTilesFixture, [TileCoordinate], MBTilesTileProvider) {
        try #require(MBTilesFixture.sqlite3Path != nil, "the sqlite3 command-line tool (apt-get install sqlite3)")
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 1)
        let file = try fixture.write("chain.mbtiles", tiles: tiles, length: chainLength)
        try fixture.execute("PRAGMA page_size = \(pageSize); VACUUM", on: file)
        #expect(try MBTilesFixture.sqlite3(file, "PRAGMA page_size") == "\(pageSize)\n")
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               readTransactionLifetime: transactionLifetime, mappingLifetime: transactionLifetime)
        return (fixture, tiles, provider)
    }

    private let chainLength = 600_000

    /// Once a read transaction holds the file's lock, a tile is found straight in the file: its
    /// row by walking the table's B-tree by hand; then it is lent where it lies (pieces of the
    /// file mapped read-only: no read of its chain at all) when its pieces (a page each) fit in
    /// a lent value's, else its chain of adjacent overflow pages read in one preadv2 (up to 256
    /// pages a call) straight into the tile's bytes; no page lent to SQLite either way.
    @Test(arguments: [512, 4096, 65536])
    func aLongOverflowChainIsFoundStraightWithFewSystemCalls(pageSize: Int) throws {
        let (fixture, tiles, provider) = try chains(pageSize: pageSize, transactionLifetime: .seconds(3600))
        defer { withExtendedLifetime(fixture) {} }
        let pages = (chainLength + pageSize - 5) / (pageSize - 4)
        let lends = pages < SQLiteConnection.lentPieceCapacity
        // The lookup of a tile not there takes the file's lock for the transaction.
        #expect(isNoTile(provider.tileWithoutWaiting(for: TileRequest(x: 0, y: 0, zoom: 5))), "the schema read first")
        for tile in tiles {
            let (found, reads, lent, straight, valuesLent) = counted(provider, tile)
            let whole = bytes(found) == MBTilesFixture.bytes(for: tile, length: chainLength)  // (not printed: 600 KB)
            #expect(whole, "\(tile), pages of \(pageSize) bytes\(mustWait(found) ? ": the read would wait" : "")")
            #expect(lent == 0, "\(tile): \(lent) pages lent to SQLite")
            #expect(lends ? valuesLent == 1 && straight == 0 : valuesLent == 0 && straight == 1,
                    "\(tile), \(pages) pages: \(valuesLent) values lent, \(straight) read straight")
            // The index (SQLite's), the file's header and the table's pages (root and leaf), then the chain.
            let chainReads = lends ? 0 : (pages + 255) / 256
            #expect(reads <= 6 + chainReads, "\(tile): \(reads) reads for \(pages) overflow pages of \(pageSize) bytes")
        }
    }

    /// The first read of a transaction, before it holds the file's lock, goes through SQLite's
    /// BLOB handle: each page asked for is read with the pages after it (one preadv2) and lent
    /// to SQLite's mapped-page path where they lie, not copied into its page cache.
    @Test(arguments: [512, 4096, 65536])
    func aLongOverflowChainIsReadThroughSQLiteWithFewSystemCalls(pageSize: Int) throws {
        // A transaction a read: each begins without the lock, and a row id found before (a
        // first round) is read at once, before any statement takes it.
        let (fixture, tiles, provider) = try chains(pageSize: pageSize, transactionLifetime: .zero)
        defer { withExtendedLifetime(fixture) {} }
        for tile in tiles { _ = settled(provider, tile) }
        let pages = (chainLength + pageSize - 5) / (pageSize - 4)
        let pagesARead = 1 + Int(CSQLITE_NOWAIT_READ_AHEAD_BYTES) / pageSize
        for tile in tiles {
            let (found, reads, lent, straight, valuesLent) = counted(provider, tile)
            let whole = bytes(found) == MBTilesFixture.bytes(for: tile, length: chainLength)
            #expect(whole, "\(tile), pages of \(pageSize) bytes\(mustWait(found) ? ": the read would wait" : "")")
            #expect(straight == 0 && valuesLent == 0, "\(tile): read before the transaction held the lock")
            // Up to four B-tree pages (index and table, root and leaf), then the chain.
            #expect(reads <= 4 + (pages + pagesARead - 1) / pagesARead,
                    "\(tile): \(reads) reads for \(pages) overflow pages of \(pageSize) bytes")
            // `pages` counts the blob's bytes as if none were in the row's own cell. A SQLite
            // built with SQLITE_DIRECT_OVERFLOW_READ reads overflow pages straight into the blob,
            // past its page cache and so past the mapped-page path: none but the first is lent.
            if sqlite3_compileoption_used("DIRECT_OVERFLOW_READ") == 0 {
                #expect(lent >= pages - 1 && lent <= pages, "\(tile): \(lent) of about \(pages) overflow pages lent")
            } else {
                #expect(lent <= 1, "\(tile): read straight into the blob")
            }
        }
    }

    /// Chains whose pages are not adjacent read the same as a thread that may wait reads them:
    /// a tile written over the freed pages of others and on past the end of the file; and pages
    /// with bytes reserved at their end (fewer blob bytes a page than the read-ahead counts on).
    @Test func chainsThatJumpReadTheSame() throws {
        try #require(MBTilesFixture.sqlite3Path != nil, "the sqlite3 command-line tool (apt-get install sqlite3)")
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 1)
        let jumping = try fixture.write("jumping.mbtiles", tiles: tiles, length: 50_000)
        // Two tiles' pages freed, then longer tiles written over them and on past the end.
        try fixture.execute("""
            DELETE FROM tiles WHERE zoom_level = 1 AND tile_column = 0;
            INSERT INTO tiles VALUES (1, 0, 0, x'89504E470D0A1A0A' || randomblob(130000));
            INSERT INTO tiles VALUES (1, 0, 1, x'89504E470D0A1A0A' || randomblob(70000));
            """, on: jumping)
        let reserved = try fixture.write("reserved.mbtiles", tiles: tiles, length: 50_000)
        #expect(try MBTilesFixture.sqlite3(reserved, ".filectrl reserve_bytes 8", "VACUUM", ".filectrl reserve_bytes")
                    .hasSuffix("8\n"), "8 bytes reserved at the end of each page")
        for file in [jumping, reserved] {
            let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                                   readTransactionLifetime: .seconds(3600))
            for tile in tiles {
                guard case .tile(let expected)? = try? provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z) else {
                    Issue.record("\(tile) missing from \(file)")
                    continue
                }
                #expect(bytes(settled(provider, tile)) == expected.data, "\(tile) of \(file)")
            }
        }
    }

    /// SQL that writes `bytes` as tile 1/1/0 (TMS row 1).
    private func update(_ bytes: [UInt8]) -> String {
        let hex = bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
        return "UPDATE tiles SET tile_data = X'\(hex)' WHERE zoom_level = 1 AND tile_column = 1 AND tile_row = 1"
    }

    /// Equal versions promise equal bytes: a change written into the file by another connection
    /// gives the tile another version.
    @Test func aTileChangedInPlaceHasAnotherVersion() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 1, x: 1, y: 0)
        let file = try fixture.write("live.mbtiles", tiles: MBTilesFixture.pyramid(0 ... 1))
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               readTransactionLifetime: .zero, mappingLifetime: .zero)
        // With a lifetime of zero the releaser runs right after each read and may hold the one
        // reader a moment (a read then must wait): `settled` asks again.
        func read() -> TileWithoutWaiting { settled(provider, tile) }
        let before = try #require(version(read()))
        #expect(version(read()) == before, "unchanged: the same version")

        let changed = MBTilesFixture.bytes(for: tile, tag: 9)
        try fixture.execute(update(changed), on: file)
        let after = read()
        #expect(bytes(after) == changed)
        #expect(version(after) != before)
        #expect(version(after)?.file == before.file, "the same file (no check was due): its reader saw the change")
    }

    /// A row id found before skips the index search only while the file holds what was read
    /// then: after another connection swaps two tiles' row ids, each tile read is still the one
    /// asked for, not the one now at the row id remembered.
    @Test func aRememberedRowIDIsNotUsedOnceTheFileChanged() throws {
        let fixture = try MBTilesFixture()
        let asked = TileCoordinate(z: 1, x: 1, y: 0)  // TMS row 1
        let other = TileCoordinate(z: 1, x: 0, y: 0)
        let file = try fixture.write("swapped.mbtiles", tiles: MBTilesFixture.pyramid(0 ... 1))
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               readTransactionLifetime: .zero, mappingLifetime: .zero)
        func read(_ tile: TileCoordinate) -> TileWithoutWaiting { settled(provider, tile) }
        #expect(bytes(read(asked)) == MBTilesFixture.bytes(for: asked))
        #expect(bytes(read(asked)) == MBTilesFixture.bytes(for: asked), "again (by the row id found: RememberedRowIDsTests)")
        try fixture.execute("""
            CREATE TEMP TABLE swap AS SELECT
                (SELECT rowid FROM tiles WHERE zoom_level = 1 AND tile_column = 1 AND tile_row = 1) AS a,
                (SELECT rowid FROM tiles WHERE zoom_level = 1 AND tile_column = 0 AND tile_row = 1) AS b;
            UPDATE tiles SET rowid = -1 WHERE rowid = (SELECT a FROM swap);
            UPDATE tiles SET rowid = (SELECT a FROM swap) WHERE rowid = (SELECT b FROM swap);
            UPDATE tiles SET rowid = (SELECT b FROM swap) WHERE rowid = -1;
            """, on: file)
        #expect(bytes(read(asked)) == MBTilesFixture.bytes(for: asked), "not the tile now at the row id remembered")
        #expect(bytes(read(other)) == MBTilesFixture.bytes(for: other))
        #expect(bytes(read(asked)) == MBTilesFixture.bytes(for: asked))
    }

    /// A reader keeps its read transaction (and its lock) between reads, for its lifetime only:
    /// a writer that will not wait is refused meanwhile; one that waits gets in, and the change
    /// is then read under another version.
    @Test func aReadTransactionIsKeptForItsLifetimeThenLetsAWriterIn() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 1, x: 1, y: 0)
        let file = try fixture.write("kept.mbtiles", tiles: MBTilesFixture.pyramid(0 ... 1))
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               readTransactionLifetime: .seconds(1))
        let before = try #require(version(settled(provider, tile)))
        let writer = try SQLiteConnection(path: file, mode: .readWriteCreate)
        let changed = MBTilesFixture.bytes(for: tile, tag: 7)
        try writer.execute("PRAGMA busy_timeout = 0")
        #expect(throws: TileProviderError.self, "the reader's transaction holds its shared lock") {
            try writer.execute(update(changed))
        }
        #expect(writer.isBusy, "refused for the lock, not for anything else")
        try writer.execute("PRAGMA busy_timeout = 20000")
        try writer.execute(update(changed))  // in once the reader's transaction has ended (by the timer)
        let after = settled(provider, tile)
        #expect(bytes(after) == changed)
        #expect(version(after) != before)
    }

    /// A tile lent from a file its operator declared immutable says so (the answer may then lend
    /// its pages to the socket) when all its pieces lie in the file's mapping; from any other
    /// file it does not, nor a tile with no overflow pages lent from a file never mapped: its
    /// bytes lie in the row reader's own buffer, which the reader's next page overwrites.
    @Test(arguments: [(false, 30_000, false), (true, 30_000, true), (true, 300, false)])
    func aLentTileSaysWhetherItsPagesAreAnImmutableFiles(immutable: Bool, length: Int, byReference: Bool) throws {
        let tile = TileCoordinate(z: 1, x: 0, y: 1)
        let fixture = try MBTilesFixture()
        let file = try fixture.write("immutable.mbtiles", tiles: MBTilesFixture.pyramid(0 ... 1), length: length)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               isImmutable: immutable)
        let expected = MBTilesFixture.bytes(for: tile, length: length)
        #expect(bytes(settled(provider, tile)) == expected)
        let lent = try #require(lentTile(provider, tile), "a tile lent")
        defer { lent.end() }
        #expect(lent.isImmutable == byReference)
        #expect(lent.copy() == expected)
    }

    /// A tile lent where it lies keeps its reader, and the reader's transaction with the file's
    /// lock, until it ends, past the transaction's lifetime: no other read takes the reader, no
    /// writer gets in, so the pages it was lent stay the tile's. Once it ends, the releaser ends
    /// the transaction, and a writer gets in; once the reader is idle for its mapping's lifetime,
    /// the releaser lets the mapping go too.
    @Test func aLentTileKeepsItsReaderAndTheFileUntilItEnds() throws {
        let tile = TileCoordinate(z: 1, x: 1, y: 0)
        let (fixture, file, provider) = try oneReader(transactions: .milliseconds(50), mapping: .milliseconds(600))
        defer { withExtendedLifetime(fixture) {} }
        let expected = MBTilesFixture.bytes(for: tile, length: 30_000)
        #expect(bytes(settled(provider, tile)) == expected)
        let held = try #require(lentTile(provider, tile), "a tile lent")
        #expect(held.count == expected.count && held.pieces.count > 1)
        #expect(mustWait(provider.tileWithoutWaiting(for: TileRequest(tile: tile))), "the one reader is kept")
        usleep(300_000)  // six lifetimes: the releaser has come by
        let writer = try SQLiteConnection(path: file, mode: .readWriteCreate)
        try writer.execute("PRAGMA busy_timeout = 0")
        let changed = MBTilesFixture.bytes(for: tile, tag: 7, length: 30_000)
        #expect(throws: TileProviderError.self, "the lent tile's reader holds the file's shared lock") {
            try writer.execute(update(changed))
        }
        #expect(writer.isBusy)
        #expect(held.copy() == expected, "the pages lent are still the tile's")
        #expect(held.copy(from: 29_000) == Array(expected[29_000...]))
        #expect(isMapped(file), "lent from the file mapped")
        held.end()
        try writer.execute("PRAGMA busy_timeout = 5000")
        try writer.execute(update(changed))  // in once the releaser has ended the transaction
        #expect(bytes(settled(provider, tile)) == changed, "the reader is back, and reads the change")
        // A later read in the same transaction: the reader is idle a lifetime after it, not
        // after the transaction began.
        usleep(30_000)
        let beforeLastRead = ContinuousClock.now
        #expect(bytes(settled(provider, tile)) == changed)
        // Idle for its mapping's lifetime (not only its transaction's), the reader lets the
        // mapping go (its pages count in the RSS).
        var mapped = true
        for _ in 0 ..< 300 where mapped {
            usleep(10_000)
            mapped = isMapped(file)
        }
        #expect(!mapped, "unmapped once the reader is idle for its mapping's lifetime")
        #expect(ContinuousClock.now - beforeLastRead >= .milliseconds(600), "not before")
    }

    /// A reader keeps the file mapped past its read transactions, for its mapping's lifetime
    /// after its last read: traffic that pauses finds the pages it lent from still mapped,
    /// while a writer gets in once the transaction has ended.
    @Test func aReaderKeepsItsMappingPastItsTransactions() throws {
        let tile = TileCoordinate(z: 1, x: 1, y: 0)
        let (fixture, file, provider) = try oneReader(transactions: .milliseconds(20), mapping: .seconds(60))
        defer { withExtendedLifetime(fixture) {} }
        try #require(lentTile(provider, tile), "a tile lent").end()
        #expect(isMapped(file), "lent from the file mapped")
        usleep(300_000)  // fifteen transaction lifetimes: the releaser has come by
        let writer = try SQLiteConnection(path: file, mode: .readWriteCreate)
        try writer.execute("PRAGMA busy_timeout = 5000")
        try writer.execute("UPDATE metadata SET value = value WHERE name = 'name'")  // the transaction has ended
        #expect(isMapped(file), "still mapped after its transactions ended")
    }

    /// A file of 30,000-byte tiles (zooms 0 and 1) in a fixture (kept for as long as the file is
    /// used), and a provider with one reader that never waits, its transactions and its mapping
    /// living as long as given.
    private func oneReader(
        transactions: Duration, mapping: Duration
    ) throws -> (MBTilesFixture, String, MBTilesTileProvider) {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("one.mbtiles", tiles: MBTilesFixture.pyramid(0 ... 1), length: 30_000)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               readTransactionLifetime: transactions, mappingLifetime: mapping)
        return (fixture, file, provider)
    }

    /// `tile` lent where it lies (so the file mapped), asked for until a read lends it: the first
    /// read of a transaction goes through SQLite's BLOB handle, the next ones are lent. Nil when
    /// none is.
    private func lentTile(_ provider: MBTilesTileProvider, _ tile: TileCoordinate) -> LentTileBytes? {
        for _ in 0 ..< 200 {
            if case .lent(let found, _, _) = provider.tileWithoutWaiting(for: TileRequest(tile: tile)) { return found }
        }
        return nil
    }

    /// Whether this process maps `file` (/proc/self/maps names each mapped file; read with
    /// read(2): it says its size is 0).
    private func isMapped(_ file: String) -> Bool {
        let descriptor = open("/proc/self/maps", O_RDONLY)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var maps: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            maps += chunk[..<n]
        }
        return String(decoding: maps, as: UTF8.self).split(separator: "\n").contains { $0.hasSuffix(" " + file) }
    }

    /// Pages a reader found whole in the page cache are taken to stay there for the provider's
    /// `residency`: a tile lent from them, its pages dropped since (once the reader let its
    /// mapping go), is lent again without asking (its leaf and overflow run from the memo of what
    /// mincore found), where a provider that asks each time must wait. (The last tile's half of
    /// the file is dropped: the header and schema pages stay, as in
    /// `largeTilesAndAReadThatFailsMidTransaction`; the first tile, read first, opens the
    /// reader's transaction, so the last is looked for straight where it was found.)
    @Test func pagesFoundInThePageCacheAreTakenToStayThereForTheResidency() throws {
        let fixture = try MBTilesFixture()
        let tiles = MBTilesFixture.pyramid(0 ... 2)
        let file = try fixture.write("trusted.mbtiles", tiles: tiles, length: 60_000)
        let first = tiles[0], last = tiles[tiles.count - 1], expected = MBTilesFixture.bytes(for: last, length: 60_000)
        func provider(residency: Duration) throws -> MBTilesTileProvider {
            try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                    readTransactionLifetime: .seconds(1), mappingLifetime: .seconds(1),
                                    residency: residency)
        }
        /// Drops the file's later half, once no reader holds its pages mapped (up to 4 s).
        func evicted() -> Bool {
            for _ in 0 ..< 80 {
                if PageCache.evict(path: file, fromFraction: 0.5) { return true }
                usleep(50_000)
            }
            return false
        }
        /// `last` read after `first`, nil when `first` had to wait (the machine paged its half out).
        func lastAfterFirst(_ provider: MBTilesTileProvider) -> TileWithoutWaiting? {
            guard !mustWait(owned(provider.tileWithoutWaiting(for: TileRequest(tile: first)))) else { return nil }
            return owned(provider.tileWithoutWaiting(for: TileRequest(tile: last)))
        }

        let strict = try provider(residency: .zero)
        #expect(Bool(bytes(settled(strict, last)) == expected))
        #expect(Bool(bytes(settled(strict, last)) == expected), "again, from where it was found")
        let trustedBefore = csqlite_nowait_residency_trusted()
        let cold = try #require(PageCache.afterEviction(evict: evicted, read: { lastAfterFirst(strict) },
                                                        until: { $0.map(mustWait) ?? false }),
                                "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(cold.map(mustWait) == true, "asked each time: its pages were dropped")
        #expect(csqlite_nowait_residency_trusted() == trustedBefore, "nothing taken from the memo")

        let trusting = try provider(residency: .seconds(60))
        #expect(Bool(bytes(settled(trusting, last)) == expected))
        #expect(Bool(bytes(settled(trusting, last)) == expected), "again, its leaf and run found whole with one mincore")
        try #require(evicted(), "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        let (runsAsked, trusted) = (csqlite_nowait_runs_asked_with_leaf(), csqlite_nowait_residency_trusted())
        let lent = try #require(lastAfterFirst(trusting), "the first tile's half of the file left the page cache")
        #expect(!mustWait(lent), "found whole a moment ago: not asked again")
        #expect(csqlite_nowait_residency_trusted() == trusted + 1, "the leaf and the run taken from the memo")
        #expect(csqlite_nowait_runs_asked_with_leaf() == runsAsked + 1, "lent from the run found with its leaf")
        #expect(Bool(bytes(lent) == expected), "read from the disk by the copy: the same bytes")
    }

    /// A file whose pages are not in the page cache is not read on the loop; once a thread that
    /// may wait has read them, it is.
    @Test func aFileOutOfThePageCacheMustWait() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 2, x: 1, y: 2)
        let file = try fixture.write("cold.mbtiles", tiles: MBTilesFixture.pyramid(0 ... 3))
        // A provider of its own for each try: what a read that did not wait brought into its
        // reader's memory (the leaf it found the tile in, under a lock it may still hold) is
        // not there for the next try.
        var opened: MBTilesTileProvider?
        var notes: [String] = []
        let cold = try #require(PageCache.afterEviction(evict: {
            opened = try? MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1)
            return opened != nil && PageCache.evict(path: file)
        }, read: {
            let (reads, lent, straight) = (csqlite_nowait_reads(), csqlite_nowait_values_lent(), csqlite_nowait_values_read())
            let found = owned(opened!.tileWithoutWaiting(for: TileRequest(tile: tile)))
            notes.append("reads \(csqlite_nowait_reads() - reads) lent \(csqlite_nowait_values_lent() - lent) "
                         + "straight \(csqlite_nowait_values_read() - straight) resident \(PageCache.resident(path: file))")
            return found
        }, until: mustWait), "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        let provider = try #require(opened)
        #expect(mustWait(cold), "a read would wait on the disk: \(notes)")
        guard case .tile(let read) = try provider.tileFor(x: tile.x, y: tile.y, zoom: tile.z) else {
            Issue.record("tileFor reads from the disk")
            return
        }
        #expect(read.data == MBTilesFixture.bytes(for: tile))
        #expect(bytes(settled(provider, tile)) == read.data, "read once: cached")
    }

    /// A reader that cannot open without waiting (SQLite reads the header as it opens) is left
    /// out, never an error: with none, every read goes to the threads that may wait.
    @Test func readersThatCannotOpenWithoutWaitingAreLeftOut() throws {
        let fixture = try MBTilesFixture()
        let file = try fixture.write("cold-open.mbtiles", tiles: [TileCoordinate(z: 0, x: 0, y: 0)])
        let none = try #require(PageCache.afterEviction(evict: { PageCache.evict(path: file) },
                                                        read: { SQLiteReadersWithoutWaiting(path: file, count: 2, transactionLifetime: .seconds(1), mappingLifetime: .seconds(1)) },
                                                        until: { $0.count == 0 }),
                                "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(none.read { _ in 1 } == nil, "no reader: the header was not in the page cache")
        #expect(none.count == 0)
        _ = try MBTilesTileProvider(path: file)  // reads the header (and the schema) back in
        let two = SQLiteReadersWithoutWaiting(path: file, count: 2, transactionLifetime: .seconds(1), mappingLifetime: .seconds(1))
        #expect(two.read { _ in 1 } == 1)
        #expect(two.count == 2)
    }

    /// Another connection's exclusive lock (a writer committing) is not waited for.
    @Test func aLockHeldElsewhereMustWaitAtOnce() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        let file = try fixture.write("locked.mbtiles", tiles: [tile])
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600), readersWithoutWaiting: 1,
                                               readTransactionLifetime: .seconds(3600))
        // Taken before the reader's first transaction: the reader's lock cannot be had.
        let writer = try SQLiteConnection(path: file, mode: .readWriteCreate)
        try writer.execute("BEGIN EXCLUSIVE")
        #expect(mustWait(provider.tileWithoutWaiting(for: TileRequest(tile: tile))))
        try writer.execute("COMMIT")
        #expect(bytes(settled(provider, tile)) == MBTilesFixture.bytes(for: tile),
                "the failed read ended its transaction: the next one begins anew")
    }

    /// A WAL database maps its index, which may wait: its tiles are read by threads that may.
    @Test func aWALDatabaseIsReadOnlyByThreadsThatMayWait() throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        let file = try fixture.write("wal.mbtiles", tiles: [tile])
        try fixture.execute("PRAGMA journal_mode=WAL", on: file)
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .seconds(3600))
        #expect(mustWait(provider.tileWithoutWaiting(for: TileRequest(tile: tile))))
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) == .tile(Tile(data: MBTilesFixture.bytes(for: tile),
                                                                          lastModified: provider.tileLastModified)))
        #expect(provider.readersWithoutWaitingProblem?.contains("WAL") == true)
    }

    /// A check of the file that falls due is made on another thread: the loop reads on, and
    /// a file replaced on disk is read once that check has opened it.
    @Test func aDueCheckIsMadeOnAnotherThread() async throws {
        let fixture = try MBTilesFixture()
        let tile = TileCoordinate(z: 0, x: 0, y: 0)
        let file = try fixture.write("check.mbtiles", tiles: [tile])
        let provider = try MBTilesTileProvider(path: file, recheckInterval: .zero)
        #expect(bytes(settled(provider, tile)) == MBTilesFixture.bytes(for: tile))
        try fixture.write("check.mbtiles", tiles: [tile], tag: 5)  // a new file renamed over the old
        var replaced = false
        for _ in 0 ..< 200 where !replaced {
            replaced = bytes(provider.tileWithoutWaiting(for: TileRequest(tile: tile))) == MBTilesFixture.bytes(for: tile, tag: 5)
            if !replaced { try await Task.sleep(for: .milliseconds(25)) }
        }
        #expect(replaced, "the replaced file is opened by a check off the loop, within 5 s")
    }
}
#endif
