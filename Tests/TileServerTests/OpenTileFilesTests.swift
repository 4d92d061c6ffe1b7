// The open-file cache of directly served tiles: kept for its validity, reopened after, bounded.

import Foundation
import Testing
import TileGeometry
import TileProviders
@testable import TileServer

@Suite struct OpenTileFilesTests {
    let folder = TemporaryFolder()
    let provider: DirectoryTileProvider

    init() {
        for x in 0 ..< 4 { folder.write("t/2/\(x)/0.png", Fixtures.worldTile(2, x, 0)) }
        provider = DirectoryTileProvider(root: folder.path + "/t")
    }

    private func key(_ x: Int) -> TileKey { TileKey(layer: "t", tile: TileCoordinate(z: 2, x: x, y: 0), scale: 1) }

    /// Opens through `files`, counting how often the path is really opened.
    private func open(_ files: OpenTileFiles, _ x: Int, opens: inout Int) throws -> TileFile? {
        try files.file(for: key(x)) { () throws(TileProviderError) in
            opens += 1
            return try provider.tileFile(for: TileRequest(tile: TileCoordinate(z: 2, x: x, y: 0)))
        }
    }

    /// Replaces tile `x`'s file with `bytes` by a rename (a new inode, as a tile writer does).
    private func replace(_ x: Int, with bytes: [UInt8]) throws {
        let temporary = folder.path + "/replacement.png"
        folder.write("replacement.png", bytes)
        #expect(rename(temporary, folder.path + "/t/2/\(x)/0.png") == 0)
    }

    /// Past its validity the path is opened again: an unchanged file stays the one kept, a
    /// replaced one takes its place.
    @Test func aFileIsKeptForItsValidityThenOpenedAgain() async throws {
        let files = OpenTileFiles(validity: 0.2)
        var opens = 0
        let first = try #require(try open(files, 1, opens: &opens))
        let second = try #require(try open(files, 1, opens: &opens))
        #expect(first === second)
        #expect(opens == 1)
        try await Task.sleep(for: .milliseconds(250))
        let third = try #require(try open(files, 1, opens: &opens))
        #expect(opens == 2, "the path was opened again")
        #expect(third === first, "the same version stays the one kept")
        try replace(1, with: Fixtures.worldTile(2, 2, 1))
        try await Task.sleep(for: .milliseconds(250))
        let fourth = try #require(try open(files, 1, opens: &opens))
        #expect(opens == 3)
        #expect(fourth !== first)
        #expect(fourth.size == Fixtures.worldTile(2, 2, 1).count)
        #expect(files.count == 1)
    }

    /// A file changed where it lies (same inode, another size and modification time) is a new
    /// version: a keep does not renew the old one.
    @Test func aFileChangedInPlaceIsNotRenewed() async throws {
        let files = OpenTileFiles(validity: 0.2)
        var opens = 0
        let first = try #require(try open(files, 1, opens: &opens))
        let path = folder.path + "/t/2/1/0.png"
        let handle = try #require(FileHandle(forWritingAtPath: path))
        try handle.truncate(atOffset: 0)
        try handle.write(contentsOf: Data(Fixtures.worldTile(2, 3, 0)))
        try handle.close()
        var times = [timespec(tv_sec: 1_000_000_000, tv_nsec: 0), timespec(tv_sec: 1_000_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, path, &times, 0) == 0)
        try await Task.sleep(for: .milliseconds(250))
        let reopened = try #require(try provider.tileFile(for: TileRequest(tile: TileCoordinate(z: 2, x: 1, y: 0))))
        #expect(reopened.identity.inode == first.identity.inode, "changed in place")
        #expect(files.keep(reopened, for: key(1)).file === reopened, "the changed file is kept, not the old one")
        let second = try #require(try open(files, 1, opens: &opens))
        #expect(second !== first)
        #expect(second.modified == 1_000_000_000)
    }

    @Test func aZeroValidityKeepsNoFile() throws {
        let files = OpenTileFiles(validity: 0)
        var opens = 0
        let first = try #require(try open(files, 1, opens: &opens))
        let second = try #require(try open(files, 1, opens: &opens))
        #expect(first !== second)
        #expect(opens == 2)
        #expect(files.count == 0)
    }

    @Test func missingTilesAreNotKept() throws {
        let files = OpenTileFiles()
        var opens = 0
        #expect(try files.file(for: key(9)) { () throws(TileProviderError) in opens += 1; return nil } == nil)
        #expect(try files.file(for: key(9)) { () throws(TileProviderError) in opens += 1; return nil } == nil)
        #expect(opens == 2)
        #expect(files.count == 0)
    }

    @Test func theNumberOfOpenFilesIsBounded() throws {
        let files = OpenTileFiles(validity: 60, capacity: 3)
        var opens = 0
        for x in 0 ..< 4 { _ = try open(files, x, opens: &opens) }
        #expect(files.count == 3)
        #expect(opens == 4)
        files.removeAll { $0.tile.x == 3 }
        #expect(files.count == 2)
    }

    /// A full table drops its oldest file for a new one (not every file at once).
    @Test func theOldestOpenFileMakesRoomForANewOne() throws {
        let files = OpenTileFiles(validity: 60, capacity: 3)
        var opens = 0
        for x in 0 ..< 4 { _ = try open(files, x, opens: &opens) }
        for x in [1, 2, 3] { _ = try open(files, x, opens: &opens) }
        #expect(opens == 4, "the three newest are kept")
        _ = try open(files, 0, opens: &opens)
        #expect(opens == 5, "the oldest was dropped")
        #expect(files.count == 3)
    }

    /// Files past their validity stay open for their retention (to be renewed), and are closed
    /// when another is kept after it; a renewal starts a file's retention again. (Times are
    /// given, not slept: `validity` 1 s, `retention` 10 s from `start`.)
    @Test func filesPastTheirRetentionAreDroppedWhenAnotherIsKept() throws {
        let files = OpenTileFiles(validity: 1, capacity: 10, retention: 10)
        let start: UInt64 = 1_000_000_000_000
        func at(_ seconds: Double) -> UInt64 { start + UInt64(seconds * 1e9) }
        var opens = 0
        func open(_ x: Int, at seconds: Double) throws {
            _ = try files.file(for: key(x), now: at(seconds)) { () throws(TileProviderError) in
                opens += 1
                return try provider.tileFile(for: TileRequest(tile: TileCoordinate(z: 2, x: x, y: 0)))
            }
        }
        for x in 0 ..< 3 { try open(x, at: 0) }
        #expect(files.kept(for: key(0), now: at(2)) == nil, "past its validity")
        try open(3, at: 5)
        #expect(files.count == 4, "past their validity, within their retention")
        try open(1, at: 5)
        #expect(opens == 5, "opened again")
        try open(2, at: 11)
        #expect(opens == 6)
        #expect(files.count == 3, "tile 0 was past its retention; 1 and 2 were renewed, 3 kept since")
        let zero = try #require(try provider.tileFile(for: TileRequest(tile: TileCoordinate(z: 2, x: 0, y: 0))))
        #expect(files.keep(zero, for: key(0), now: at(11)).file === zero, "tile 0 was closed: kept anew")
        #expect(files.kept(for: key(2), now: at(11)) != nil, "just renewed")
        #expect(files.kept(for: key(1), now: at(11)) == nil, "renewed at 5 s: past its validity, still open")
        try open(0, at: 15.5)
        #expect(opens == 7)
        #expect(files.count == 2, "1 and 3, last opened at 5 s, were closed when 0 was kept again at 15.5 s")
        #expect(files.kept(for: key(0), now: at(15.5)) != nil)
    }

    /// A kept file carries the fingerprint noted for it, also when found unchanged past its
    /// validity; a note for a file that is no longer the key's kept one is not taken, and a
    /// replaced file opened again starts without one.
    @Test func aKeptFileCarriesItsNotedFingerprint() async throws {
        let files = OpenTileFiles(validity: 0.2)
        var opens = 0
        let first = try #require(try open(files, 1, opens: &opens))
        #expect(files.kept(for: key(1))?.fingerprint == nil)
        let print = TileFingerprint(etag: "\"1\"", lastModifiedText: "", byteCount: first.size)
        files.note(print, of: first, for: key(1))
        let kept = try #require(files.kept(for: key(1)))
        #expect(kept.file === first)
        #expect(kept.fingerprint === print)
        try await Task.sleep(for: .milliseconds(250))
        #expect(files.kept(for: key(1)) == nil, "past its validity")
        _ = try open(files, 1, opens: &opens)
        let renewed = try #require(files.kept(for: key(1)))
        #expect(renewed.file === first)
        #expect(renewed.fingerprint === print, "an unchanged file opened again keeps its fingerprint")
        try replace(1, with: Fixtures.worldTile(2, 2, 1))
        try await Task.sleep(for: .milliseconds(250))
        let second = try #require(try open(files, 1, opens: &opens))
        #expect(second !== first)
        #expect(files.kept(for: key(1))?.fingerprint == nil, "a replaced file opened again has no fingerprint yet")
        files.note(print, of: first, for: key(1))
        #expect(files.kept(for: key(1))?.fingerprint == nil, "a note for the file let go is not taken")
        files.note(print, of: first, for: key(2))
        #expect(files.kept(for: key(2)) == nil, "nothing is kept for a note alone")
    }

    /// Two layers' tables share one budget: a full budget makes a table give up its own oldest
    /// file, and a table with nothing to give up keeps nothing; dropped tables give theirs back.
    @Test func tablesShareTheProcessBudget() throws {
        let budget = OpenFileBudget(capacity: 3)
        var first: OpenTileFiles? = OpenTileFiles(validity: 60, budget: budget, guaranteed: 0)
        let second = OpenTileFiles(validity: 60, budget: budget, guaranteed: 0)
        var opens = 0
        for x in 0 ..< 3 { _ = try open(try #require(first), x, opens: &opens) }
        #expect(budget.inUse == 3)
        let file = try #require(try open(second, 3, opens: &opens))
        #expect(second.count == 0, "the second table had nothing to give up")
        #expect(fcntl(file.descriptor, F_GETFD) >= 0, "the file opened stays open for its answer")
        _ = try open(try #require(first), 3, opens: &opens)
        #expect(first?.count == 3, "the first table gave up its oldest")
        #expect(budget.inUse == 3)
        _ = try open(try #require(first), 0, opens: &opens)
        #expect(opens == 6, "tile 0 was the one given up, so it was opened again")
        first?.removeAll { $0.tile.x == 0 }
        #expect(budget.inUse == 2)
        first = nil
        #expect(budget.inUse == 0)
        _ = try open(second, 3, opens: &opens)
        #expect(second.count == 1)
        #expect(budget.inUse == 1)
    }

    /// A table keeps its guaranteed few while another holds the whole budget, counted in it.
    @Test func aTableKeepsItsGuaranteedFilesWhenTheBudgetIsSpent() throws {
        let budget = OpenFileBudget(capacity: 2)
        let busy = OpenTileFiles(validity: 60, budget: budget, guaranteed: 0)
        let quiet = OpenTileFiles(validity: 60, budget: budget, guaranteed: 1)
        var opens = 0
        for x in 0 ..< 2 { _ = try open(busy, x, opens: &opens) }
        _ = try open(quiet, 2, opens: &opens)
        _ = try open(quiet, 2, opens: &opens)
        #expect(opens == 3, "the quiet table kept its file")
        #expect(quiet.count == 1)
        #expect(budget.inUse == 3)
        _ = try open(quiet, 3, opens: &opens)
        #expect(quiet.count == 1, "beyond its guarantee it gives up its own oldest")
        #expect(busy.count == 2)
        #expect(budget.inUse == 3)
    }

    /// Files and connections share the budget's descriptors: the files take what the
    /// connections and the headroom leave, at least the floor, at most the capacity.
    @Test func theBudgetLeavesTheConnectionsTheirDescriptors() {
        let budget = OpenFileBudget(capacity: 10, sharedDescriptors: 12, floor: 2)
        #expect(budget.capacity == 10)
        budget.connectionsChanged(by: 5)
        #expect(budget.capacity == 7)
        budget.connectionsChanged(by: 8)
        #expect(budget.capacity == 2, "the files keep their floor")
        budget.connectionsChanged(by: -13)
        #expect(budget.capacity == 10)
        let spared = OpenFileBudget(capacity: 10, sharedDescriptors: 12, floor: 2, headroom: 3)
        spared.connectionsChanged(by: 5)
        #expect(spared.capacity == 4, "three descriptors are left for connections to come")
        let one = OpenFileBudget(capacity: 1)
        #expect(one.claim())
        #expect(!one.claim())
        one.release()
        #expect(one.claim())
    }

    /// A connection opened that leaves the files fewer descriptors than they hold makes the
    /// fullest table give back its oldest files; once the connections close, files may take
    /// the descriptors again.
    @Test func connectionsTakeDescriptorsBackFromKeptFiles() throws {
        let budget = OpenFileBudget(capacity: 4, sharedDescriptors: 5, floor: 1)
        let busy = OpenTileFiles(validity: 60, budget: budget, guaranteed: 0)
        let quiet = OpenTileFiles(validity: 60, budget: budget, guaranteed: 0)
        var opens = 0
        _ = try open(quiet, 0, opens: &opens)
        for x in 1 ..< 4 { _ = try open(busy, x, opens: &opens) }
        #expect(budget.inUse == 4)
        budget.connectionsChanged(by: 2)
        #expect(budget.inUse == 3, "two connections leave the files three descriptors")
        #expect(busy.count == 2, "the fullest table gave back its oldest")
        #expect(quiet.count == 1)
        _ = try open(busy, 1, opens: &opens)
        #expect(opens == 5, "tile 1 was given back, so it was opened again")
        #expect(busy.count == 2, "and kept in place of the table's oldest")
        budget.connectionsChanged(by: 3)
        #expect(busy.count == 0, "the fullest gives back first")
        #expect(quiet.count == 1)
        #expect(budget.inUse == 1)
        budget.connectionsChanged(by: -5)
        for x in 1 ..< 4 { _ = try open(busy, x, opens: &opens) }
        #expect(busy.count == 3, "with the connections gone the files take their descriptors again")
        #expect(budget.inUse == 4)
    }

    /// Connections within the headroom take no file back; one beyond it makes the tables give
    /// back down to the headroom again, not one file at a time. A table gives back nothing of
    /// its guaranteed few.
    @Test func filesAreGivenBackOnceEveryHeadroomOfConnections() throws {
        let budget = OpenFileBudget(capacity: 10, sharedDescriptors: 6, floor: 0, headroom: 2)
        let files = OpenTileFiles(validity: 60, budget: budget, guaranteed: 0)
        var opens = 0
        for x in 0 ..< 4 { _ = try open(files, x, opens: &opens) }
        #expect(files.count == 4)
        budget.connectionsChanged(by: 1)
        budget.connectionsChanged(by: 1)
        #expect(files.count == 4, "two connections fit in the headroom")
        budget.connectionsChanged(by: 1)
        #expect(files.count == 1, "the third leaves the files 3, and the headroom 2 more")
        let guaranteed = OpenTileFiles(validity: 60, budget: OpenFileBudget(capacity: 10), guaranteed: 1)
        for x in 0 ..< 2 { _ = try open(guaranteed, x, opens: &opens) }
        #expect(guaranteed.giveBack(upTo: 5) == 1)
        #expect(guaranteed.count == 1)
    }
}
