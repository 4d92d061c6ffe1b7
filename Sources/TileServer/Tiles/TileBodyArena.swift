import Foundation
import Synchronization
import TileHTTP
import TileProviders

#if os(Linux)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the memory cache keeps tile bodies so a hit goes to the socket with `sendfile`, without
/// a copy from the process into the kernel (nginx's way with files, for tiles held in memory).
///
/// The bodies live in one sparse memory file (`memfd_create`): each is written once, at its own
/// page-aligned offset that is never written again, and its pages are freed (a punched hole)
/// when the last holder — the cache entry, or a response still being sent — lets it go. A send
/// in progress keeps its pages even then: the kernel holds them until they are sent, and no
/// later body is ever written over them, so a slow client can never receive another tile's
/// bytes. Offsets only grow; when the file's (virtual) size is used up, a new file takes over
/// and the old one closes with its last body.
final class TileBodyArena: Sendable {
    /// The memory file.
    let descriptor: Int32
    /// The next free offset.
    private let next = Mutex(0)

    /// The (virtual, sparse) size of each memory file: 1 TiB, about a week of tiles at 2 GB/s.
    static let fileSize = 1 << 40
    /// Bodies are placed on page boundaries, so a freed body's pages can be freed whole.
    static let pageSize = 4096

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The arena new bodies go to, or nil when memory files cannot be made here (then bodies
    /// stay in the process and go out with `writev`).
    private static let current = Mutex<TileBodyArena?>(TileBodyArena.make())

    private static func make() -> TileBodyArena? {
        #if os(Linux)
        guard !shmemMayUseLargePages() else { return nil }
        let fd = clinux_memory_file("tilelayer-tiles", fileSize)
        return fd >= 0 ? TileBodyArena(descriptor: fd) : nil
        #else
        return nil  // no memory files: bodies stay in the process
        #endif
    }

    /// Bodies shorter than this stay in the process: a page each would cost more memory than
    /// the copy into the socket costs time.
    static let minimumBytes = 2048

    /// Whether the kernel may back memory files with pages larger than 4 KiB (transparent huge
    /// pages for shmem: `always`, `within_size` or `force`, at the top level or for a size that
    /// inherits it or chooses it). Punching one body's 4 KiB pages out of a large page zeroes
    /// them in place, under a send that may still hold them: then the arena is not used.
    static func shmemMayUseLargePages(folder: String = "/sys/kernel/mm/transparent_hugepage") -> Bool {
        func selected(_ path: String) -> String? {
            guard let text = try? String(contentsOfFile: path, encoding: .utf8),
                  let open = text.firstIndex(of: "["), let close = text.firstIndex(of: "]"), open < close
            else { return nil }
            return String(text[text.index(after: open) ..< close])
        }
        let large: Set<String> = ["always", "within_size", "force"]
        let top = selected(folder + "/shmem_enabled")
        if let top, large.contains(top) { return true }
        let sizes = (try? FileManager.default.contentsOfDirectory(atPath: folder))?.filter { $0.hasPrefix("hugepages-") } ?? []
        return sizes.contains { size in
            guard let choice = selected(folder + "/" + size + "/shmem_enabled") else { return false }
            return large.contains(choice) || (choice == "inherit" && top.map(large.contains) == true)
        }
    }

    /// A copy of `bytes` in the current arena, or nil when there is none, it cannot take them,
    /// or they are shorter than `minimumBytes`.
    static func store(_ bytes: [UInt8]) -> TileBody? {
        guard bytes.count >= minimumBytes else { return nil }
        let span = (bytes.count + pageSize - 1) / pageSize * pageSize
        let placed: (TileBodyArena, Int)? = current.withLock { arena in
            guard let current = arena else { return nil }
            if let offset = current.reserve(span) { return (current, offset) }
            // This file is used up: a new one takes over (the old one closes with its last body).
            guard let fresh = make(), let offset = fresh.reserve(span) else { return nil }
            arena = fresh
            return (fresh, offset)
        }
        guard let (arena, offset) = placed, arena.write(bytes, at: offset) else { return nil }
        return TileBody(arena: arena, offset: offset, count: bytes.count, span: span)
    }

    private func reserve(_ span: Int) -> Int? {
        next.withLock { next in
            guard next + span <= Self.fileSize else { return nil }
            defer { next += span }
            return next
        }
    }

    private func write(_ bytes: [UInt8], at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, bytes.count - done, off_t(offset + done)) }
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else {
                release(offset: offset, span: bytes.count)
                return false
            }
            done += n
        }
        return true
    }

    fileprivate func release(offset: Int, span: Int) {
        #if os(Linux)
        _ = clinux_punch_hole(descriptor, offset, (span + Self.pageSize - 1) / Self.pageSize * Self.pageSize)
        #endif
    }
}

/// One tile body in a `TileBodyArena`: sent with `sendfile`, read back with `pread`; its pages
/// are freed when the last holder lets it go.
final class TileBody: Sendable {
    private let arena: TileBodyArena
    private let offset: Int
    /// The body's length.
    let count: Int
    /// The pages it takes (its length rounded up to whole pages).
    let span: Int

    fileprivate init(arena: TileBodyArena, offset: Int, count: Int, span: Int) {
        self.arena = arena
        self.offset = offset
        self.count = count
        self.span = span
    }

    deinit { arena.release(offset: offset, span: span) }

    /// The body as a response body sent from the memory file (kept alive while queued).
    var fileBody: HTTPFileBody {
        HTTPFileBody(descriptor: arena.descriptor, offset: offset, count: count, owner: self, shared: true)
    }

    /// The bytes, read back (for renders and the cache tiers; a hit sends them without this).
    /// A failed read (a page that cannot come back in a tight memory cgroup) is an error, never
    /// other bytes.
    func read() throws(TileProviderError) -> [UInt8] {
        guard let bytes = fileBody.read() else {
            throw .unreadable(path: "the memory cache's copy of a tile (memory file)", errno: errno)
        }
        return bytes
    }
}
