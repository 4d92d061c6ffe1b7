#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinux
#endif
import Sockets

/// Opens tile files with `open`/`fstat`, no Foundation on the hot path.
public enum FileReader {
    /// Largest file read as a tile.
    static let maxBytes = 64 << 20

    /// Whether `path` is on a local filesystem (ext4, XFS, Btrfs, tmpfs, overlayfs, ZFS…), not
    /// a network or FUSE one; false off Linux.
    static func isLocalFilesystem(_ path: String) -> Bool {
        #if os(Linux)
        return clinux_is_local_filesystem(path) == 1
        #else
        return false
        #endif
    }

    /// What opening a file without waiting found.
    public enum OpenedWithoutWaiting {
        /// The file, opened from the kernel's caches alone.
        case opened(TileFile)
        /// No file there (the kernel's caches know the name is absent): no tile.
        case missing
        /// Opening it would need the disk, or it failed: `open`, off the loop, says which.
        case mustWait
    }

    /// The file opened only if that needs no disk access (every part of its path is in the
    /// kernel's caches: `openat2` with `RESOLVE_CACHED`), so an event loop may call it. The
    /// descriptor keeps O_NONBLOCK, which a regular file on a local filesystem ignores (the only
    /// kind this is used on: see `FileTileProvider.opensWithoutWaiting`).
    static func openWithoutWaiting(_ path: String) -> OpenedWithoutWaiting {
        #if os(Linux)
        // Within the descriptor reserve: a worker's `open` says so (503).
        guard DescriptorBudget.process.hasRoom(for: .file) else { return .mustWait }
        let fd = clinux_open_cached(path)
        guard fd >= 0 else { return errno == ENOENT || errno == ENOTDIR ? .missing : .mustWait }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            close(fd)
            return .mustWait
        }
        let file = TileFile(descriptor: fd, path: path, info: info)  // closes fd from here on
        guard (info.st_mode & S_IFMT) == S_IFREG, file.size <= maxBytes else { return .mustWait }
        return .opened(file)
        #else
        return .mustWait
        #endif
    }

    /// The file opened, or nil when it does not exist or is not a regular file. Out of file
    /// descriptors (`EMFILE`, `ENFILE`, or within the reserve the process keeps free:
    /// `DescriptorBudget`) is `outOfDescriptors`, not available now.
    static func open(_ path: String) throws(TileProviderError) -> TileFile? {
        guard DescriptorBudget.process.hasRoom(for: .file) else { throw .outOfDescriptors(path: path) }
        #if canImport(Glibc)
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        #else
        let fd = Darwin.open(path, O_RDONLY | O_CLOEXEC)
        #endif
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            if code == EMFILE || code == ENFILE {
                DescriptorBudget.process.exhaustedOnce()
                throw .outOfDescriptors(path: path)
            }
            throw .unreadable(path: path, errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(path: path, errno: code)
        }
        let file = TileFile(descriptor: fd, path: path, info: info)  // closes fd from here on
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        guard file.size <= maxBytes else { throw .unreadable(path: path, errno: EFBIG) }
        return file
    }
}

func systemErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
