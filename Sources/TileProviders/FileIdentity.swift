#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one version of a file from another without reading it: device, inode, size and
/// modification time. A `mv new old` gives a new inode; an in-place rewrite a new size or time.
/// Equal identities mean equal contents, as long as files are replaced (or at least re-stamped)
/// when they change, which is what tools that write tiles do.
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int

    /// Hashes every field in two words, the inode with the device and the modification time with
    /// the size: what tells files, and versions of a file, apart (equality still compares each
    /// field).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(inode ^ device << 48)
        hasher.combine(modifiedNanoseconds ^ modifiedSeconds << 30 ^ Int(truncatingIfNeeded: size) << 2)
    }

    /// The identity of the file at `path` (one `stat`), nil when there is no file there.
    static func of(_ path: String) throws(TileProviderError) -> FileIdentity? {
        var info = stat()
        guard stat(path, &info) == 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw .unreadable(path: path, errno: code)
        }
        return FileIdentity(info)
    }

    /// The identity `fstat` or `stat` reported.
    init(_ info: stat) {
        #if canImport(Darwin)
        let modified = info.st_mtimespec
        #else
        let modified = info.st_mtim
        #endif
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec))
    }

    public init(device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
    }
}
