import TileGeometry
import TileProviders

/// One tile of an archive (MBTiles) in one version of its contents, as its reader saw it: the
/// key of `TilePipeline.archiveFingerprints`.
struct ArchiveTileVersion: Hashable, Sendable {
    let contents: TileContentVersion
    let tile: TileCoordinate

    /// The reader, its data version and the tile: what tells versions apart in practice (a
    /// reader reads one file; equality still compares the file's identity too). Four words
    /// hashed a request instead of the ten of every field.
    func hash(into hasher: inout Hasher) {
        hasher.combine(contents.reader)
        hasher.combine(UInt64(contents.dataVersion) << 32 | UInt64(UInt32(truncatingIfNeeded: tile.z)))
        hasher.combine(tile.x)
        hasher.combine(tile.y)
    }
}
