// Opening a tile file without waiting on the disk: only what the kernel's caches hold.

import CLinux
import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Testing
import TileGeometry
@testable import TileProviders
import TestThreads

#if os(Linux)
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct FileOpenWithoutWaitingTests {
    private func folder() throws -> String {
        let path = NSTemporaryDirectory() + "open-cached-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: path + "/0/0", withIntermediateDirectories: true)
        return path
    }

    /// `bytes` written to a new file at `path`, opened without waiting (just written: cached).
    private func written(_ bytes: [UInt8], at path: String) throws -> TileFile {
        #expect(FileManager.default.createFile(atPath: path, contents: Data(bytes)))
        return try #require(opened(path))
    }

    /// The file at `path` when it opens without waiting.
    private func opened(_ path: String) -> TileFile? {
        if case .opened(let file) = FileReader.openWithoutWaiting(path) { return file }
        return nil
    }

    /// Whether `path` was found missing without waiting (the kernel's caches know it is absent).
    private func isMissing(_ path: String) -> Bool {
        if case .missing = FileReader.openWithoutWaiting(path) { return true }
        return false
    }

    @Test func aCachedFileOpensWithItsBytesAndAMissingOneDoesNot() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 1, 2, 3]
        FileManager.default.createFile(atPath: root + "/0/0/0.png", contents: Data(bytes))
        // Just written: its path and inode are in the kernel's caches.
        let file = try #require(opened(root + "/0/0/0.png"))
        #expect(file.size == bytes.count)
        #expect(try file.readVersion().bytes == bytes)
        #expect(!isMissing(root + "/0/0/1.png"), "a name never looked up: the kernel's caches cannot tell")
        #expect(access(root + "/0/0/1.png", F_OK) != 0)  // looked up once (a worker's open)
        #expect(isMissing(root + "/0/0/1.png"), "a name the kernel knows is absent: no tile, told at once")
        #expect(opened(root + "/0/0") == nil && !isMissing(root + "/0/0"), "a folder is not a tile: left to the workers")
    }

    /// A file is read without waiting only while the page cache holds all of it.
    @Test func aFileIsReadWithoutWaitingOnlyFromThePageCache() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let file = try written(bytes, at: root + "/0/0/0.png")
        // The kernel may refuse such a read for a moment even of pages it holds (the last folio
        // of a file just written, not wholly up to date, locked by writeback): asked again.
        var fresh = file.readAllWithoutWaiting()
        for _ in 0 ..< 200 where fresh == nil {
            usleep(10_000)
            fresh = file.readAllWithoutWaiting()
        }
        #expect(fresh == bytes, "just written: in the page cache")
        // On tmpfs the pages are the storage and cannot be dropped: then the check cannot run,
        // and says so by failing.
        let cold = try #require(PageCache.afterEviction(evict: { PageCache.evict(descriptor: file.descriptor, size: file.size) },
                                                        read: { file.readAllWithoutWaiting() }, until: { $0 == nil }),
                                "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(cold.map(\.count) == nil, "dropped from the page cache: a read would wait on the disk")
        #expect(try file.readVersion().bytes == bytes)
        #expect(file.readAllWithoutWaiting() == bytes, "read again: cached again")

        let large = [UInt8](repeating: 1, count: TileFile.maxBytesReadWithoutWaiting + 1)
        #expect(FileManager.default.createFile(atPath: root + "/0/0/1.png", contents: Data(large)))
        #expect(try #require(opened(root + "/0/0/1.png")).readAllWithoutWaiting() == nil,
                "larger than a tile: not read on a loop")
    }

    /// Whether the page cache holds a whole file (cachestat), as mincore tells it: yes once
    /// written and read, no once its last page is dropped, yes again once read again; and, to a
    /// process that neither owns the file nor may write it, nothing (the kernel does not say),
    /// and after that the kernel is not asked again about that open file.
    @Test func theWholeFileIsToldInThePageCacheOrNot() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let bytes = (0..<100_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        let file = try written(bytes, at: root + "/0/0/0.png")
        #expect(try file.readVersion().bytes == bytes)
        #expect(file.isCachedWhole() == true)
        // Only the last page dropped: all of the file is asked about, not its start.
        let page = sysconf(Int32(_SC_PAGESIZE))
        try #require(PageCache.evict(descriptor: file.descriptor, size: file.size, from: (file.size - 1) / page * page),
                     "could not drop the file's pages from the page cache (a tmpfs temporary folder?)")
        #expect(file.isCachedWhole() == false, "its last page is not in the page cache")
        #expect(try file.readVersion().bytes == bytes)
        #expect(file.isCachedWhole() == true)
        #expect(try actingAsNobody { file.isCachedWhole() } == nil, "a file this process neither owns nor may write: not told")
    }

    /// `body` run on a thread whose filesystem user is nobody (65534): the kernel checks a file's
    /// owner and write permission against it.
    private func actingAsNobody<T: Sendable>(_ body: @Sendable () throws -> T) throws -> T {
        try #require(getuid() == 0, "acting as another user takes root")
        let previous = clinux_set_thread_fsuid(65534)
        defer { _ = clinux_set_thread_fsuid(previous) }
        return try body()
    }

    /// A FIFO (a hung disk's stand-in) opens at once and is refused: opening it for reading
    /// would otherwise wait for a writer, on an event loop.
    @Test func aFIFOIsRefusedWithoutWaitingForAWriter() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(mkfifo(root + "/0/0/0.png", 0o600) == 0)
        #expect(opened(root + "/0/0/0.png") == nil)
    }

    @Test func aDirectoryProviderOpensItsTilesWithoutWaiting() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        FileManager.default.createFile(atPath: root + "/0/0/0.png", contents: Data([1, 2, 3]))
        let provider = DirectoryTileProvider(root: root)
        let request = TileRequest(tile: TileCoordinate(z: 0, x: 0, y: 0), variables: [:])
        guard case .opened(let file) = provider.tileFileWithoutWaiting(for: request) else {
            Issue.record("a tile just written opens without waiting")
            return
        }
        #expect(try file.readVersion().bytes == [1, 2, 3])
    }

    /// A network or FUSE mount (here /proc, not a local disk filesystem) never opens on a loop.
    @Test func onlyALocalFilesystemOpensWithoutWaiting() throws {
        let root = try folder()
        defer { try? FileManager.default.removeItem(atPath: root) }
        #expect(DirectoryTileProvider(root: root).opensWithoutWaiting)
        #expect(!DirectoryTileProvider(root: "/proc").opensWithoutWaiting)
        guard case .mustWait = DirectoryTileProvider(root: "/proc").tileFileWithoutWaiting(
            for: TileRequest(tile: TileCoordinate(z: 0, x: 0, y: 0), variables: [:])) else {
            Issue.record("a file under /proc is left to a worker")
            return
        }
    }
}
#endif
