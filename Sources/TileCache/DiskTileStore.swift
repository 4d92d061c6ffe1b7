import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A folder of cached answers, one file per key, that survives restarts.
///
/// Writes go to a temporary file beside the target and are renamed over it, so a reader sees
/// the old file or the new one, never a mix. There is no fsync: a file torn by a crash fails its
/// size or checksum test on the next read, is deleted and counts as a miss. Stateless apart
/// from the folder, so several stores (or processes) may share one.
public final class DiskTileStore<Key: Sendable>: Sendable {
    /// The folder.
    public let root: String
    private let relativePath: @Sendable (Key) -> String
    private let key: @Sendable (String) -> Key?

    /// Files larger than this are not read (no cached tile is near it; the file is corrupt).
    public static var maxFileBytes: Int { 64 << 20 }

    /// A store under `root`; `relativePath` names a key's file (no leading `/`, no `..`),
    /// `key` is its inverse (nil for a name that is not a key's), used by `removeAll(where:)`.
    public init(root: String, relativePath: @escaping @Sendable (Key) -> String, key: @escaping @Sendable (String) -> Key?) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.relativePath = relativePath
        self.key = key
    }

    /// The file of `key`.
    public func path(for key: Key) -> String { root + "/" + relativePath(key) }

    /// The record of `key`, nil when none is stored. A corrupt file is deleted and reported as
    /// `CacheError.corrupt`, an outdated one deleted as none stored; other failures as
    /// `CacheError.diskIO`.
    public func read(_ key: Key) throws(CacheError) -> DiskRecord? {
        let path = path(for: key)
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return nil }
            throw .diskIO(path: path, operation: "read", errno: code)
        }
        defer { close(fd) }
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw .diskIO(path: path, operation: "stat", errno: errno) }
        let size = Int(info.st_size)
        guard size <= Self.maxFileBytes else { throw discard(path, "\(size) bytes, over the limit") }
        var bytes = [UInt8](repeating: 0, count: size)
        var done = 0
        while done < size {
            let count = bytes.withUnsafeMutableBytes { posixRead(fd, $0.baseAddress! + done, size - done) }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw .diskIO(path: path, operation: "read", errno: errno) }
            if count == 0 { break }
            done += count
        }
        if done < size { bytes.removeLast(size - done) }
        switch DiskRecord.decode(consume bytes) {  // its last use: the record's body is these bytes, not a copy
        case .success(let record): return record
        case .failure(.outdated):
            unlink(path)
            return nil
        case .failure(let problem): throw discard(path, problem.reason)
        }
    }

    /// Stores `record` for `key`, replacing any earlier one in one step.
    public func write(_ record: DiskRecord, for key: Key) throws(CacheError) {
        let path = path(for: key)
        let slash = path.lastIndex(of: "/")!
        let folder = String(path[..<slash])
        let temporary = "\(folder)/.\(path[path.index(after: slash)...]).\(getpid()).\(UInt32.random(in: 0 ... .max)).tmp"
        var fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0, errno == ENOENT {
            try makeFolders(folder)
            fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        }
        guard fd >= 0 else { throw .diskIO(path: temporary, operation: "create", errno: errno) }
        let bytes = record.encoded()
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { posixWrite(fd, $0.baseAddress! + done, bytes.count - done) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let code = count < 0 ? errno : ENOSPC
                close(fd)
                unlink(temporary)
                throw .diskIO(path: temporary, operation: "write", errno: code)
            }
            done += count
        }
        guard close(fd) == 0, rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw .diskIO(path: path, operation: "rename into place", errno: code)
        }
    }

    /// Deletes the file of `key`, if any.
    public func remove(_ key: Key) {
        unlink(path(for: key))
    }

    /// Deletes the files of keys for which `matches` holds (every file when nil, by moving the
    /// folder aside and deleting it); returns how many key files went (nil: the whole folder).
    @discardableResult
    public func removeAll(where matches: ((Key) -> Bool)? = nil) throws(CacheError) -> Int? {
        guard let matches else {
            let aside = "\(root).cleared.\(getpid()).\(UInt32.random(in: 0 ... .max))"
            guard rename(root, aside) == 0 else {
                if errno == ENOENT { return nil }
                throw .diskIO(path: root, operation: "move aside", errno: errno)
            }
            try? FileManager.default.removeItem(atPath: aside)
            return nil
        }
        guard let walker = FileManager.default.enumerator(atPath: root) else { return 0 }
        var removed = 0
        while let relative = walker.nextObject() as? String {
            guard let key = key(relative), matches(key) else { continue }
            if unlink(root + "/" + relative) == 0 { removed += 1 }
        }
        return removed
    }

    private func discard(_ path: String, _ reason: String) -> CacheError {
        unlink(path)
        return .corrupt(path: path, reason: reason)
    }

    private func makeFolders(_ folder: String) throws(CacheError) {
        var current = folder.hasPrefix("/") ? "" : "."
        for part in folder.split(separator: "/") {
            current += "/" + part
            if mkdir(current, 0o755) != 0, errno != EEXIST {
                throw .diskIO(path: current, operation: "create folder", errno: errno)
            }
        }
    }
}

// File-level names for the system calls the store's own `read`/`write` methods shadow.
private func posixRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int { read(fd, buffer, count) }
private func posixWrite(_ fd: Int32, _ buffer: UnsafeRawPointer, _ count: Int) -> Int { write(fd, buffer, count) }
