#if os(Linux)
import Glibc

/// The kernel's page cache, for tests of reads that never wait on the disk.
enum PageCache {
    /// Drops the pages of the open file `descriptor` (`size` bytes) from the page cache, written
    /// back first; false when `mincore` says some stay (tmpfs, whose pages are its storage).
    static func evict(descriptor: Int32, size: Int) -> Bool {
        guard fsync(descriptor) == 0, posix_fadvise(descriptor, 0, 0, POSIX_FADV_DONTNEED) == 0,
              let mapped = mmap(nil, size, PROT_READ, MAP_SHARED, descriptor, 0),
              mapped != UnsafeMutableRawPointer(bitPattern: -1)
        else { return false }
        defer { munmap(mapped, size) }
        let page = sysconf(Int32(_SC_PAGESIZE))
        var resident = [UInt8](repeating: 1, count: (size + page - 1) / page)
        guard mincore(mapped, size, &resident) == 0 else { return false }
        return resident.allSatisfy { $0 & 1 == 0 }
    }

    /// `evict(descriptor:size:)` for the file at `path`.
    static func evict(path: String) -> Bool {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return false }
        return evict(descriptor: descriptor, size: Int(info.st_size))
    }
}
#endif
