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
