/// The MBTiles 1.3 tables and queries, shared by the reader and the writer.
/// (https://github.com/mapbox/mbtiles-spec/blob/master/1.3/spec.md)
enum MBTilesSchema {
    /// `PRAGMA application_id` of an MBTiles file: "MPBX" (MBTiles 1.3 recommends setting it).
    static let applicationID: Int32 = 0x4d50_4258

    /// The tables and indexes a writer creates. The unique index makes lookups by tile an index search.
    static let create = """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE UNIQUE INDEX metadata_name ON metadata (name);
        CREATE TABLE tiles (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_data BLOB);
        CREATE UNIQUE INDEX tile_index ON tiles (zoom_level, tile_column, tile_row);
        """

    /// Which of the two required objects exist (`tiles` may be a view, as in deduplicating layouts).
    static let requiredObjects = """
        SELECT name FROM sqlite_master WHERE type IN ('table', 'view') AND name IN ('tiles', 'metadata')
        """

    /// Every metadata row.
    static let selectMetadata = "SELECT name, value FROM metadata"

    /// The zoom range of the stored tiles (for files without minzoom/maxzoom rows).
    static let selectZoomRange = "SELECT min(zoom_level), max(zoom_level) FROM tiles"

    /// One tile's bytes; parameters zoom, column, TMS row.
    static let selectTile = "SELECT tile_data FROM tiles WHERE zoom_level = ?1 AND tile_column = ?2 AND tile_row = ?3"

    /// Stores one tile; parameters zoom, column, TMS row, bytes.
    static let insertTile =
        "INSERT OR REPLACE INTO tiles (zoom_level, tile_column, tile_row, tile_data) VALUES (?1, ?2, ?3, ?4)"

    /// Stores one metadata row; parameters name, value.
    static let insertMetadata = "INSERT OR REPLACE INTO metadata (name, value) VALUES (?1, ?2)"
}
