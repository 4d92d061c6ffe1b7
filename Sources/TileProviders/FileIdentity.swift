#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What tells one version of a file from another without reading it: device, inode, size, and
/// the modification and status-change times to the nanosecond. A `mv new old` gives a new
/// inode; an in-place rewrite a new size or mtime; a rewrite whose mtime is put back (`rsync -t
/// --inplace`, an unpacked archive) a new ctime, which no user call can set. (Linux ≥ 6.13
/// gives a change after a `stat` a ctime of its own even within one timer tick.)
public struct FileIdentity: Sendable, Hashable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    public var modifiedSeconds: Int
    public var modifiedNanoseconds: Int
    public var changedSeconds: Int
    public var changedNanoseconds: Int

    /// Hashes every field in two words (equality still compares each field).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(inode ^ device << 48)
        hasher.combine(modifiedNanoseconds ^ modifiedSeconds << 30 ^ Int(truncatingIfNeeded: size) << 2
            ^ changedNanoseconds << 17 ^ changedSeconds)
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
        let (modified, changed) = (info.st_mtimespec, info.st_ctimespec)
        #else
        let (modified, changed) = (info.st_mtim, info.st_ctim)
        #endif
        self.init(device: UInt64(info.st_dev), inode: UInt64(info.st_ino), size: Int64(info.st_size),
                  modifiedSeconds: Int(modified.tv_sec), modifiedNanoseconds: Int(modified.tv_nsec),
                  changedSeconds: Int(changed.tv_sec), changedNanoseconds: Int(changed.tv_nsec))
    }

    public init(
        device: UInt64, inode: UInt64, size: Int64, modifiedSeconds: Int, modifiedNanoseconds: Int,
        changedSeconds: Int = 0, changedNanoseconds: Int = 0
    ) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modifiedSeconds = modifiedSeconds
        self.modifiedNanoseconds = modifiedNanoseconds
        self.changedSeconds = changedSeconds
        self.changedNanoseconds = changedNanoseconds
    }
}

extension FileIdentity {
    /// Seconds after its last change within which a file may still be in the middle of a
    /// write (`isSettling`).
    public static let settlingSeconds = 2

    /// Whether the file changed less than `settlingSeconds` before `now` (seconds since 1970): it
    /// may be written again, or a write may still be under way (a write updates the file's times
    /// when it starts). Its bytes are then read twice to be taken as one version, and not sent
    /// with `sendfile`, whose pages a write could change under the send.
    public func isSettling(at now: Int) -> Bool {
        now - changedSeconds < Self.settlingSeconds
    }
}
