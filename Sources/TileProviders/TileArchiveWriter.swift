import TileGeometry

/// A single-file tile archive being written (`seed --to`): MBTiles or PMTiles, chosen by the
/// file's extension. Writes go to a temporary file; `finish()` puts the archive in place in one step.
public protocol TileArchiveWriter: AnyObject {
    /// The file `finish()` makes.
    var path: String { get }
    /// Sets a metadata value (MBTiles 1.3 keys and syntax).
    func setMetadata(_ key: String, _ value: String) throws(TileProviderError)
    /// Stores one tile (XYZ), replacing any earlier one.
    func write(tile: TileCoordinate, data: [UInt8]) throws(TileProviderError)
    /// Completes the archive and renames it to `path`.
    func finish() throws(TileProviderError)
    /// Throws the temporary file away; `path` is untouched.
    func cancel()
}

extension MBTilesWriter: TileArchiveWriter {}
extension PMTilesWriter: TileArchiveWriter {}

/// The writer for `path`: PMTiles v3 for `.pmtiles`, else MBTiles 1.3.
public func makeTileArchiveWriter(path: String) throws(TileProviderError) -> any TileArchiveWriter {
    path.lowercased().hasSuffix(".pmtiles") ? try PMTilesWriter(path: path) : try MBTilesWriter(path: path)
}
