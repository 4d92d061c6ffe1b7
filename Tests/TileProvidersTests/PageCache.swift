#if os(Linux)
import Glibc

/// The kernel's page cache, for tests of reads that never wait on the disk.
enum PageCache {
    /// Drops the pages of the open file `descriptor` (`size` bytes) from the page cache, written
    /// back first; false when `mincore` says some stay (tmpfs, whose pages are its storage).
    /// From byte `from` on (a multiple of the page size): pages mapped by a process (a reader's
    /// lent values) stay, so a test evicts a part of the file no value was lent from.
    static func evict(descriptor: Int32, size: Int, from: Int = 0) -> Bool {
        guard fsync(descriptor) == 0, posix_fadvise(descriptor, off_t(from), 0, POSIX_FADV_DONTNEED) == 0,
              let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1)
        else { return false }
        defer { munmap(mapped, size) }
        let page = sysconf(Int32(_SC_PAGESIZE))
        var resident = [UInt8](repeating: 1, count: (size + page - 1) / page)
        guard mincore(mapped, size, &resident) == 0 else { return false }
        return resident[(from / page)...].allSatisfy { $0 & 1 == 0 }
    }

    /// What `read` answers just after `evict` dropped a file's pages, asked again (the pages
    /// dropped again) while the answer is not one that waited (`waited`), up to `attempts`
    /// times; nil when `evict` fails. A read that never waits (`preadv2` with `RWF_NOWAIT`) of a
    /// page the page cache lacks starts the disk read and fails, but now and then the disk (a
    /// virtual one, from the host's own cache) is done before the kernel looks again, and the
    /// read succeeds having waited for nothing. Code that does wait on the disk never gives a
    /// wait's answer, so the test still fails for it.
    static func afterEviction<Answer>(
        attempts: Int = 5, evict: () -> Bool, read: () -> Answer, until waited: (Answer) -> Bool
    ) -> Answer? {
        var answer: Answer?
        for _ in 0 ..< attempts {
            guard evict() else { return nil }
            let found = read()
            answer = found
            if waited(found) { break }
        }
        return answer
    }

    /// Which of the pages of the file at `path` the page cache holds (mincore), for messages.
    static func resident(path: String) -> String {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return "?" }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_size > 0,
              let mapped = mmap(nil, Int(info.st_size), PROT_READ, MAP_SHARED, descriptor, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1)
        else { return "?" }
        defer { munmap(mapped, Int(info.st_size)) }
        let page = sysconf(Int32(_SC_PAGESIZE))
        var states = [UInt8](repeating: 0, count: (Int(info.st_size) + page - 1) / page)
        guard mincore(mapped, Int(info.st_size), &states) == 0 else { return "?" }
        return String(states.map { $0 & 1 == 1 ? "#" : "." })
    }

    /// `evict(descriptor:size:from:)` for the file at `path`, from `fraction` of it on.
    static func evict(path: String, fromFraction fraction: Double = 0) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        let page = sysconf(Int32(_SC_PAGESIZE))
        let from = Int(Double(info.st_size) * fraction) / page * page
        return evict(descriptor: descriptor, size: Int(info.st_size), from: from)
    }
}
#endif
