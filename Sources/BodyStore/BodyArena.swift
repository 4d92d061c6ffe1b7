#if os(Linux)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

// BodyStore: bytes kept in a memory file, so they go to a socket with `sendfile`; knows no
// HTTP and no tiles. Invariant: no body's pages are ever written over while a send may hold them.

/// Where bodies sent many times are kept so they go to the socket with `sendfile`, without a
/// copy from the process into the kernel (nginx's way with files, for bytes held in memory): the
/// memory cache's tiles.
///
/// The bodies live in one sparse memory file (`memfd_create`): each at its own page-aligned
/// offset, and its pages are freed (a punched hole) when the last holder — the cache entry, or
/// a response still being sent — lets it go. A send in progress keeps its pages even then: the
/// kernel holds them until they are sent, and no later body is ever written over them, so a
/// slow client can never receive another body's bytes. Offsets only grow; when the file's
/// (virtual) size is used up, a new file takes over and the old one closes with its last body.
public final class BodyArena: Sendable {
    /// The memory file.
    let descriptor: Int32
    /// The next free offset.
    private let next = Mutex(0)

    /// The (virtual, sparse) size of each memory file: 1 TiB, about a week of tiles at 2 GB/s.
    static let fileSize = 1 << 40
    /// Bodies are placed on page boundaries, so a freed body's pages can be freed whole.
    public static let pageSize = 4096

    private init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }

    /// The arena new bodies go to, or nil when memory files cannot be made here (then bodies
    /// stay in the process and go out with `writev`).
    private static let current = Mutex<BodyArena?>(BodyArena.make())

    private static func make() -> BodyArena? {
        #if os(Linux)
        guard !shmemMayUseLargePages() else { return nil }
        let fd = clinux_memory_file("tilelayer-bodies", fileSize)
        return fd >= 0 ? BodyArena(descriptor: fd) : nil
        #else
        return nil  // no memory files: bodies stay in the process
        #endif
    }

    /// Bodies shorter than this stay in the process: a page each would cost more memory than
    /// the copy into the socket costs time.
    public static let minimumBytes = 2048

    /// Whether the kernel may back memory files with pages larger than 4 KiB (transparent huge
    /// pages for shmem: `always`, `within_size` or `force`, at the top level or for a size that
    /// inherits it or chooses it). Punching one body's 4 KiB pages out of a large page zeroes
    /// them in place, under a send that may still hold them: then the arena is not used.
    static func shmemMayUseLargePages(folder: String = "/sys/kernel/mm/transparent_hugepage") -> Bool {
        let large: Set<String> = ["always", "within_size", "force"]
        let top = SettingsFolder.selected(folder + "/shmem_enabled")
        if let top, large.contains(top) { return true }
        return SettingsFolder.entries(of: folder).filter { $0.hasPrefix("hugepages-") }.contains { size in
            guard let choice = SettingsFolder.selected(folder + "/" + size + "/shmem_enabled") else { return false }
            return large.contains(choice) || (choice == "inherit" && top.map(large.contains) == true)
        }
    }

    /// A copy of `bytes` in the current arena, or nil when there is none, it cannot take them,
    /// or they are shorter than `minimumBytes`.
    public static func store(_ bytes: [UInt8]) -> ArenaBody? {
        guard bytes.count >= minimumBytes, let body = place(count: bytes.count) else { return nil }
        return bytes.withUnsafeBytes { body.write($0, at: 0) } ? body : nil
    }

    /// The bytes of the whole pages a body of `count` bytes takes.
    static func span(of count: Int) -> Int { (count + pageSize - 1) / pageSize * pageSize }

    /// Pages for a body of `count` bytes in the current arena, not written yet; nil when there
    /// is no arena or it cannot take them.
    static func place(count: Int) -> ArenaBody? {
        let span = span(of: count)
        let placed: (BodyArena, Int)? = current.withLock { arena in
            guard let current = arena else { return nil }
            if let offset = current.reserve(span) { return (current, offset) }
            // This file is used up: a new one takes over (the old one closes with its last body).
            guard let fresh = make(), let offset = fresh.reserve(span) else { return nil }
            arena = fresh
            return (fresh, offset)
        }
        guard let (arena, offset) = placed else { return nil }
        return ArenaBody(arena: arena, offset: offset, count: count, span: span)
    }

    private func reserve(_ span: Int) -> Int? {
        next.withLock { next in
            guard next + span <= Self.fileSize else { return nil }
            defer { next += span }
            return next
        }
    }

    /// Writes `bytes` at `offset` of the file, whole or not at all (false).
    fileprivate func write(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Bool {
        var done = 0
        while done < bytes.count {
            let n = pwrite(descriptor, bytes.baseAddress! + done, bytes.count - done, off_t(offset + done))
            if n < 0 && errno == EINTR { continue }
            guard n > 0 else { return false }
            done += n
        }
        return true
    }

    /// Frees the pages of `span` bytes from `offset` (a page boundary).
    fileprivate func release(offset: Int, span: Int) -> Bool {
        #if os(Linux)
        return clinux_punch_hole(descriptor, offset, (span + Self.pageSize - 1) / Self.pageSize * Self.pageSize) == 0
        #else
        return false
        #endif
    }
}

/// One body in an `BodyArena`: sent with `sendfile`, read back with `pread`; its pages are
/// freed when the last holder lets it go.
public final class ArenaBody: Sendable {
    private let arena: BodyArena
    private let start: Int
    /// The body's length.
    public let count: Int
    /// The pages it takes (its length rounded up to whole pages).
    public let span: Int

    fileprivate init(arena: BodyArena, offset: Int, count: Int, span: Int) {
        self.arena = arena
        self.start = offset
        self.count = count
        self.span = span
    }

    deinit { _ = arena.release(offset: start, span: span) }

    /// The memory file holding the body (open while this object lives).
    public var descriptor: Int32 { arena.descriptor }
    /// Where the body starts in the memory file.
    public var offset: Int { start }

    /// The bytes, read back (a send does not need this); nil when a page cannot come back (a
    /// tight memory cgroup), never other bytes.
    public func read() -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(arena.descriptor, buffer.baseAddress! + done, count - done, off_t(start + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { failed = true; break }
                done += n
            }
            initialized = done
        }
        return failed ? nil : bytes
    }

    /// Writes `bytes` at `position` of the body, whole or not at all (false).
    func write(_ bytes: UnsafeRawBufferPointer, at position: Int) -> Bool {
        precondition(position >= 0 && position + bytes.count <= count, "a write outside the body")
        return arena.write(bytes, at: start + position)
    }
}
