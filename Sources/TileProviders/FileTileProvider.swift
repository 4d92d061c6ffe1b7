#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A synchronous provider whose tiles are whole files, one a tile: the server may send a tile
/// straight from its file (`sendfile`) instead of reading it into memory first, and checks a
/// kept copy against the file's version (`FileVersion`).
public protocol FileTileProvider: VersionedTileProvider {
    /// The path of the file that holds the tile (made only from the tile's integers, checked
    /// variable values and the provider's fixed template: never outside its folder).
    func path(for request: TileRequest) -> String

    /// Whether its files lie on a local filesystem, where opening a file whose path the kernel
    /// caches never waits (`FileReader.openWithoutWaiting`); on NFS, CIFS or FUSE an open may
    /// ask a server.
    var opensWithoutWaiting: Bool { get }
}

extension FileTileProvider {
    /// The tile file's bytes, read whole as one version (`TileFile.readVersion`), or "no tile"
    /// when there is no file; the validator names that version, or the path's absence.
    public func versionedTile(for request: TileRequest) throws(TileProviderError) -> (TileResult, (any TileValidator)?) {
        let path = path(for: request)
        guard let file = try FileReader.open(path) else {
            return (.noTile, FileVersion(path: path, identity: nil, local: opensWithoutWaiting))
        }
        let (bytes, identity) = try file.readVersion(settling: file.identity.isSettling(at: time(nil)))
        return (.tile(Tile(data: bytes, lastModified: identity.modifiedSeconds)),
                FileVersion(path: path, identity: identity, local: opensWithoutWaiting))
    }

    /// The tile's open file; nil when there is no tile.
    public func tileFile(for request: TileRequest) throws(TileProviderError) -> TileFile? {
        try FileReader.open(path(for: request))
    }

    /// The tile's file opened if that needs no disk access (an event loop may ask), or that
    /// there is none; `.mustWait` when it would wait or failed: `tileFile(for:)` then answers,
    /// off the loop.
    public func tileFileWithoutWaiting(for request: TileRequest) -> FileReader.OpenedWithoutWaiting {
        guard opensWithoutWaiting else { return .mustWait }
        return FileReader.openWithoutWaiting(path(for: request))
    }
}

/// One version of one file (or its absence): the validator of a tile read from it, current
/// while a `stat` of the path finds the same identity.
public struct FileVersion: TileValidator, Hashable {
    /// The path.
    public let path: String
    /// The identity read; nil: there was no file.
    public let identity: FileIdentity?
    /// Whether `path` lies on a local filesystem, where its identity can be read from the
    /// kernel's caches without waiting (`isCurrentWithoutWaiting`).
    public let local: Bool

    /// The version `identity` (nil: no file) of `path`, on a `local` filesystem or not.
    public init(path: String, identity: FileIdentity?, local: Bool = false) {
        self.path = path
        self.identity = identity
        self.local = local
    }

    public func isCurrent() -> Bool {
        (try? FileIdentity.of(path)) == identity
    }

    /// Whether some process has the file open for writing now (`TileFile.isOpenForWriting`):
    /// bytes read from it that are not a whole tile are likely a write under way. Blocking (an
    /// open): call it on a worker.
    public func isBeingWritten() -> Bool {
        (try? FileReader.open(path))??.isOpenForWriting() ?? false
    }

    /// From the kernel's caches alone (`FileReader.openWithoutWaiting`), on a local filesystem.
    public func isCurrentWithoutWaiting() -> Bool? {
        guard local else { return nil }
        switch FileReader.openWithoutWaiting(path) {
        case .opened(let file): return file.identity == identity
        case .missing: return identity == nil
        case .mustWait: return nil
        }
    }
}
