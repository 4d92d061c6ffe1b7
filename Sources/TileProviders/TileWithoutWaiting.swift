/// What a read without waiting found (`WithoutWaitingTileProvider`).
public enum TileWithoutWaiting: Sendable {
    /// The tile's bytes, as stored, which version of its contents they are, and its
    /// modification time (seconds since 1970).
    case tile([UInt8], version: TileContentVersion, lastModified: Int)
    /// The same, the bytes lent where they lie (`LentTileBytes`: end it soon).
    case lent(LentTileBytes, version: TileContentVersion, lastModified: Int)
    /// No tile here (the same as `tile(for:)`'s `.noTile`).
    case noTile
    /// Reading it would wait (or failed): ask `tile(for:)`, off the event loop.
    case mustWait
}
