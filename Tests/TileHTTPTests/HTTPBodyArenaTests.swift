#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import TileHTTP

/// The body arena: bodies written once to a memory file, read and sent from it,
/// and their pages freed when the last holder lets go.
@Suite struct HTTPBodyArenaTests {
    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    /// Whether the memory file holds pages for `file`'s range (no hole at its start).
    private func hasPages(_ file: HTTPFileBody) -> Bool {
        lseek(file.descriptor, off_t(file.offset), 3 /* SEEK_DATA */) == off_t(file.offset)
    }

    @Test func bodiesAreStoredOnTheirOwnPagesAndReadBack() throws {
        let first = bytes(10_000, seed: 1)
        let second = bytes(2048, seed: 2)
        let a = try #require(HTTPBodyArena.store(first))
        let b = try #require(HTTPBodyArena.store(second))
        #expect(a.count == 10_000 && a.span == 12_288)
        #expect(b.count == 2048 && b.span == 4096)
        let (readA, readB) = (a.read(), b.read())
        #expect(Bool(readA == first) && Bool(readB == second))
        let (fileA, fileB) = (a.fileBody, b.fileBody)
        #expect(fileA.offset % 4096 == 0 && fileB.offset % 4096 == 0)
        // Never overlapping, whichever came first.
        #expect(fileA.offset + a.span <= fileB.offset || fileB.offset + b.span <= fileA.offset)
        #expect(HTTPBodyArena.store([]) == nil, "an empty body stays in the process")
        #expect(HTTPBodyArena.store(bytes(2047, seed: 4)) == nil, "so does one shorter than a page's worth")
    }

    @Test func aBodyInFlightOutlivesItsCacheEntryAndItsPagesGoAfter() throws {
        let body = bytes(1 << 20, seed: 3)
        var stored: HTTPArenaBody? = try #require(HTTPBodyArena.store(body))
        let file = stored!.fileBody  // what a queued response holds
        #expect(hasPages(file))
        stored = nil  // evicted from the cache while the response is still queued
        #expect(Bool(file.read() == body), "a queued response still sends the tile's own bytes")
        #expect(hasPages(file))
        let probe = HTTPFileBody(descriptor: file.descriptor, offset: file.offset, count: file.count, owner: HTTPBodyArenaProbe())
        _ = consume file  // sent: the last holder lets go, and the pages are freed
        #expect(!hasPages(probe))
    }
}
extension HTTPBodyArenaTests {
    /// A transparent-huge-page settings folder like /sys/kernel/mm/transparent_hugepage.
    private func settings(top: String, sizes: [String: String]) -> TemporaryFolder {
        let folder = TemporaryFolder()
        let options = ["always", "within_size", "advise", "never", "deny", "force"]
        folder.write("shmem_enabled", Array(options.map { $0 == top ? "[\($0)]" : $0 }.joined(separator: " ").utf8))
        for (size, choice) in sizes {
            let sizeOptions = ["always", "inherit", "within_size", "advise", "never"]
            folder.write("hugepages-\(size)/shmem_enabled",
                         Array(sizeOptions.map { $0 == choice ? "[\($0)]" : $0 }.joined(separator: " ").utf8))
        }
        return folder
    }

    private func largePages(top: String, sizes: [String: String]) -> Bool {
        let folder = settings(top: top, sizes: sizes)
        return withExtendedLifetime(folder) { HTTPBodyArena.shmemMayUseLargePages(folder: folder.path) }
    }

    @Test func theArenaIsNotUsedWhereMemoryFilesMayGetLargePages() {
        #expect(!largePages(top: "never", sizes: ["2048kB": "inherit", "16kB": "never"]))
        #expect(!largePages(top: "advise", sizes: ["2048kB": "inherit"]))
        #expect(largePages(top: "always", sizes: [:]))
        #expect(largePages(top: "within_size", sizes: ["2048kB": "never"]))
        #expect(largePages(top: "never", sizes: ["64kB": "always"]))
        #expect(largePages(top: "force", sizes: ["2048kB": "inherit"]))
        #expect(!HTTPBodyArena.shmemMayUseLargePages(folder: "/nonexistent"), "no settings: no large pages")
    }
}

/// A temporary folder removed when the value is released.
private final class TemporaryFolder {
    let path = NSTemporaryDirectory() + "tilelayer-arena-" + UUID().uuidString

    func write(_ relative: String, _ bytes: [UInt8]) {
        let full = path + "/" + relative
        try! FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: full, contents: Data(bytes))
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }
}

/// An owner that keeps nothing alive (to look at a range after its body is gone).
private final class HTTPBodyArenaProbe: Sendable {}
#endif
