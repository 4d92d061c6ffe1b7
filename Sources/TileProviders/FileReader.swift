#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole small files with `open`/`fstat`/`read`, no Foundation on the hot path.
enum FileReader {
    enum Outcome {
        case contents([UInt8], modified: Int)
        case missing
    }

    /// Largest file read as a tile.
    static let maxBytes = 64 << 20

    /// The file's contents and mtime, or `.missing` when it does not exist or is not a file.
    static func read(_ path: String) throws(TileProviderError) -> Outcome {
        guard let file = try open(path) else { return .missing }
        return .contents(try file.readAll(), modified: file.modified)
    }

    /// The file opened, or nil when it does not exist or is not a regular file.
    static func open(_ path: String) throws(TileProviderError) -> TileFile? {
        let fd = Glibc.open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
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
