#if os(Linux)
import Foundation
import Glibc
import Testing
@testable import BodyStore

/// The body arena: bodies written once to a memory file, read and sent from it,
/// and their pages freed when the last holder lets go.
@Suite struct BodyArenaTests {
    private func bytes(_ count: Int, seed: UInt8) -> [UInt8] {
        (0 ..< count).map { UInt8(truncatingIfNeeded: $0 &* 31) ^ seed }
    }

    /// Whether the memory file `descriptor` holds pages at `offset` (no hole there).
    private func hasPages(_ descriptor: Int32, at offset: Int) -> Bool {
        lseek(descriptor, off_t(offset), 3 /* SEEK_DATA */) == off_t(offset)
    }

    @Test func bodiesAreStoredOnTheirOwnPagesAndReadBack() throws {
        let first = bytes(10_000, seed: 1)
        let second = bytes(2048, seed: 2)
        let a = try #require(BodyArena.store(first))
        let b = try #require(BodyArena.store(second))
        #expect(a.count == 10_000 && a.span == 12_288)
        #expect(b.count == 2048 && b.span == 4096)
        let (readA, readB) = (a.read(), b.read())
        #expect(Bool(readA == first) && Bool(readB == second))
        #expect(a.offset % 4096 == 0 && b.offset % 4096 == 0)
        // Never overlapping, whichever came first.
        #expect(a.offset + a.span <= b.offset || b.offset + b.span <= a.offset)
        #expect(BodyArena.store([]) == nil, "an empty body stays in the process")
        #expect(BodyArena.store(bytes(2047, seed: 4)) == nil, "so does one shorter than a page's worth")
    }

    @Test func aBodyInFlightOutlivesItsCacheEntryAndItsPagesGoAfter() throws {
        let body = bytes(1 << 20, seed: 3)
        var stored: ArenaBody? = try #require(BodyArena.store(body))
        var queued: ArenaBody? = stored  // what a queued response holds (its file region's owner)
        let (descriptor, offset) = (stored!.descriptor, stored!.offset)
        #expect(hasPages(descriptor, at: offset))
        stored = nil  // evicted from the cache while the response is still queued
        #expect(Bool(queued?.read() == body), "a queued response still sends the tile's own bytes")
        #expect(hasPages(descriptor, at: offset))
        let arena = try #require(queued.map { _ in BodyArena.store(bytes(4096, seed: 5)) })  // keeps the file open
        queued = nil  // sent: the last holder lets go, and the pages are freed
        #expect(!hasPages(descriptor, at: offset))
        _ = arena
    }
}
extension BodyArenaTests {
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
        return withExtendedLifetime(folder) { BodyArena.shmemMayUseLargePages(folder: folder.path) }
    }

    @Test func theArenaIsNotUsedWhereMemoryFilesMayGetLargePages() {
        #expect(!largePages(top: "never", sizes: ["2048kB": "inherit", "16kB": "never"]))
        #expect(!largePages(top: "advise", sizes: ["2048kB": "inherit"]))
        #expect(largePages(top: "always", sizes: [:]))
        #expect(largePages(top: "within_size", sizes: ["2048kB": "never"]))
        #expect(largePages(top: "never", sizes: ["64kB": "always"]))
        #expect(largePages(top: "force", sizes: ["2048kB": "inherit"]))
        #expect(!BodyArena.shmemMayUseLargePages(folder: "/nonexistent"), "no settings: no large pages")
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
#endif
