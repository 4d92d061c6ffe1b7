import TileGeometry
import TileProviders

/// One tile of an archive (MBTiles) in one version of its contents, as its reader saw it: the
/// key of `TilePipeline.archiveFingerprints`.
struct ArchiveTileVersion: Hashable, Sendable {
    let contents: TileContentVersion
    let tile: TileCoordinate
}
