/// A synchronous provider that can also read a tile without waiting — on no disk, no lock, no
/// check of its file that is due — when what it needs is in memory already (the kernel's page
/// cache, its own caches). An event loop asks it first; when it answers `.mustWait`, the
/// ordinary `tile(for:)` answers on a thread that may wait.
public protocol WithoutWaitingTileProvider: SyncTileProvider {
    /// The tile, if it can be read without waiting. Any failure is `.mustWait`: `tile(for:)`
    /// then meets it again and says what is wrong.
    func tileWithoutWaiting(for request: TileRequest) -> TileWithoutWaiting
}

/// What a read without waiting found.
public enum TileWithoutWaiting: Sendable {
    /// The tile's bytes, as stored, and which version of its contents they are.
    case tile([UInt8], version: TileContentVersion, lastModified: Int)
    /// No tile here (the same as `tile(for:)`'s `.noTile`).
    case noTile
    /// Reading it would wait (or failed): ask `tile(for:)`, off the event loop.
    case mustWait
}

/// Which contents a tile read without waiting has: two reads of one tile with equal versions
/// gave equal bytes, so whatever is derived from the bytes (a content hash, an encoded answer
/// head) can be kept by version and tile instead of being made again for every request.
public struct TileContentVersion: Sendable, Hashable {
    /// The file read (a replaced file is another version).
    public var file: FileIdentity
    /// The reader that read it (each has its own view of changes; never reused in a process).
    public var reader: UInt64
    /// That reader's count of changes it saw made to the file since it opened it.
    public var changes: UInt32
}
