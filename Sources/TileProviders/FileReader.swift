#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads whole small files with `open`/`fstat`/`read`, no Foundation on the hot path.
enum FileReader {
    /// The outcome of reading one file.
    enum Outcome {
        case contents([UInt8], modified: Int)
        case missing
    }

    /// Largest file read (a tile is far smaller; anything bigger is a mistake, not a tile).
    static let maxBytes = 64 << 20

    /// Reads the file at `path`; a missing file or folder is `.missing`, other failures throw.
    static func read(_ path: String) throws(TileProviderError) -> Outcome {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        if fd < 0 {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .missing }
            throw .unreadable(path: path, errno: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .unreadable(path: path, errno: errno) }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .missing }
        let size = Int(info.st_size)
        guard size <= maxBytes else { throw .unreadable(path: path, errno: EFBIG) }
        // Read straight into uninitialised storage: no zero-fill of a buffer about to be overwritten.
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = Glibc.read(fd, buffer.baseAddress! + done, size - done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    if n < 0 { failure = errno }
                    break  // end of file: the file shrank while being read
                }
                done += n
            }
            count = done
        }
        if failure != 0 { throw .unreadable(path: path, errno: failure) }
        return .contents(bytes, modified: Int(info.st_mtim.tv_sec))
    }
}

/// The text of an `errno` value.
func systemErrorText(_ code: Int32) -> String {
    String(cString: strerror(code))
}
