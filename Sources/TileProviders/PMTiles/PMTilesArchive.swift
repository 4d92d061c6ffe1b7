#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Synchronization
import TileGeometry

/// One opened version of a local PMTiles v3 file: its header, root directory and metadata read
/// at open, tiles and leaf directories read with `pread` (blocking: called on the worker pool).
/// Immutable but for the leaf cache, which a `Mutex` owns; the descriptor is closed on release.
final class PMTilesArchive: Sendable {
    /// Leaf directories kept decoded per archive.
    static let leafCacheCapacity = 64
    /// Directory levels below the root followed before the archive is called corrupt (spec §4.4: at most 3).
    static let maxLeafDepth = 3

    let path: String
    let identity: FileIdentity
    let header: PMTilesHeader
    let root: PMTilesDirectory
    /// Header fields and JSON metadata, in the shape TileJSON is filled from.
    let metadata: MBTilesMetadata
    private let descriptor: Int32
    private let leaves = Mutex(PMTilesLeafCache(capacity: PMTilesArchive.leafCacheCapacity))

    /// Opens `path` and reads header, root directory and metadata; errors name the file.
    init(path: String) throws(TileProviderError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else {
            let code = errno
            throw code == ENOENT ? .fileNotFound(path: path) : .unreadable(path: path, errno: code)
        }
        var info = stat()
        guard fstat(fd, &info) == 0 else {
            let code = errno
            close(fd)
            throw .unreadable(path: path, errno: code)
        }
        let parsed: (header: PMTilesHeader, root: PMTilesDirectory, metadata: MBTilesMetadata)
        do throws(PMTilesFormatError) {
            let header = try PMTilesHeader(try Self.read(fd, offset: 0, length: UInt64(PMTilesHeader.size)))
            let root = try PMTilesDirectory(decoding: try Self.section(fd, header.rootDirectory, header))
            parsed = (header, root, try Self.metadata(header: header, json: try Self.section(fd, header.metadata, header)))
        } catch {
            close(fd)
            throw .notPMTiles(path: path, reason: error.reason)
        }
        self.path = path
        self.descriptor = fd  // closed by deinit from here on
        self.identity = FileIdentity(info)
        (header, root, metadata) = parsed
    }

    deinit { close(descriptor) }

    /// Where the bytes of tile `id` are in the file, following leaf directories.
    func lookup(_ id: UInt64) throws(PMTilesFormatError) -> PMTilesHeader.Section? {
        var directory = root
        for _ in 0 ... Self.maxLeafDepth {
            switch directory.lookup(id) {
            case .absent:
                return nil
            case .tile(let offset, let length):
                guard offset <= header.tileData.length, UInt64(length) <= header.tileData.length - offset else {
                    throw PMTilesFormatError("a tile's bytes lie past the tile data section")
                }
                return PMTilesHeader.Section(offset: header.tileData.offset + offset, length: UInt64(length))
            case .leaf(let offset, let length):
                directory = try leaf(PMTilesHeader.Section(offset: header.leafDirectories.offset + offset, length: UInt64(length)))
            }
        }
        throw PMTilesFormatError("leaf directories nest deeper than \(Self.maxLeafDepth) levels")
    }

    /// The bytes of `section`.
    func bytes(_ section: PMTilesHeader.Section) throws(PMTilesFormatError) -> [UInt8] {
        try Self.read(descriptor, offset: section.offset, length: section.length)
    }

    /// The leaf directory at `section`, decoded once and then kept in the bounded cache.
    private func leaf(_ section: PMTilesHeader.Section) throws(PMTilesFormatError) -> PMTilesDirectory {
        if let cached = leaves.withLock({ $0.directory(at: section.offset) }) { return cached }
        let directory = try PMTilesDirectory(decoding: try Self.section(descriptor, section, header))
        leaves.withLock { $0.insert(directory, at: section.offset) }
        return directory
    }

    /// A directory or metadata section, decompressed per the header's internal compression.
    private static func section(
        _ fd: Int32, _ section: PMTilesHeader.Section, _ header: PMTilesHeader
    ) throws(PMTilesFormatError) -> [UInt8] {
        try header.decompressInternal(try read(fd, offset: section.offset, length: section.length))
    }

    /// Exactly `length` bytes at `offset`; fewer means the file is truncated.
    private static func read(_ fd: Int32, offset: UInt64, length: UInt64) throws(PMTilesFormatError) -> [UInt8] {
        guard length <= UInt64(FileReader.maxBytes), offset <= UInt64(Int64.max) - length else {
            throw PMTilesFormatError("a section of \(length) bytes at \(offset) is implausible")
        }
        var buffer = [UInt8](repeating: 0, count: Int(length))
        var done = 0
        while done < buffer.count {
            let count = buffer.withUnsafeMutableBytes { raw in
                pread(fd, raw.baseAddress! + done, raw.count - done, off_t(offset) + off_t(done))
            }
            if count < 0, errno == EINTR { continue }
            guard count >= 0 else { throw PMTilesFormatError("read failed: \(systemErrorText(errno))") }
            guard count > 0 else {
                throw PMTilesFormatError("the file ends before byte \(offset + length) (truncated?)")
            }
            done += count
        }
        return buffer
    }
}
