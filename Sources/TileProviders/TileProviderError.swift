/// A source failed: not "no tile", not "not available now", but something an operator must see.
public enum TileProviderError: Error, Equatable, Sendable, CustomStringConvertible {
    /// A file exists but could not be read.
    case unreadable(path: String, errno: Int32)
    /// A file could not be written, renamed or synced.
    case unwritable(path: String, errno: Int32)
    /// The bytes from `source` are not a PNG.
    case notPNG(source: String)
    /// The bytes from `source` are not a tile of the layer's `format` (their magic bytes differ).
    case notFormat(source: String, format: TileFormat)
    /// A source is misconfigured (said at start-up).
    case invalidConfiguration(String)
    /// A file a source needs does not exist.
    case fileNotFound(path: String)
    /// SQLite reported an error on the database at `path`.
    case database(path: String, message: String)
    /// The file at `path` is not an MBTiles file; `reason` says what is missing.
    case notMBTiles(path: String, reason: String)
    /// The MBTiles metadata row `key` holds a value that cannot be parsed.
    case invalidMetadata(path: String, key: String, value: String)
    /// A source PNG (`source` names the tile) could not be decoded to make a derived tile.
    case undecodable(source: String, reason: String)
    /// A derived tile (composite, @2x, downscale) could not be made.
    case renderFailed(reason: String)
    /// The MBTiles or PMTiles file holds tiles in a format tilelayer does not serve.
    case unsupportedFormat(path: String, format: String)
    /// An upstream request failed in a way retrying will not mend (TLS, a body over the limit,
    /// a URL that is not one): a bad gateway, not "not available now".
    case upstream(url: String, reason: String)

    /// The file at `path` is not a readable PMTiles v3 archive (header, root directory or metadata).
    case notPMTiles(path: String, reason: String)
    /// A PMTiles archive's directory or tile data for `tile` (z/x/y) is corrupt or truncated.
    case corruptArchive(path: String, tile: String, reason: String)
    /// A file kept changing while it was read (written in place): try again shortly.
    case changing(path: String)
    /// Bytes that start as the layer's format but are not a whole tile of it (cut short, noise
    /// after a good start, a failed CRC): `source` names the tile, `reason` the defect.
    case damaged(source: String, reason: String)
    /// The process is out of file descriptors, or within the reserve it keeps free
    /// (`DescriptorBudget`), so `path` was not opened: try again shortly.
    case outOfDescriptors(path: String)

    public var description: String {
        switch self {
        case .unreadable(let path, let code): return "cannot read \(path): \(systemErrorText(code))"
        case .unwritable(let path, let code): return "cannot write \(path): \(systemErrorText(code))"
        case .notPNG(let source): return "\(source) is not a PNG"
        case .notFormat(let source, let format): return "\(source) is not a \(format.displayName)"
        case .undecodable(let source, let reason): return "cannot decode \(source): \(reason)"
        case .renderFailed(let reason): return "cannot render the tile: \(reason)"
        case .invalidConfiguration(let message): return message
        case .fileNotFound(let path): return "\(path) does not exist"
        case .database(let path, let message): return "SQLite error on \(path): \(message)"
        case .notMBTiles(let path, let reason): return "\(path) is not an MBTiles file: \(reason)"
        case .invalidMetadata(let path, let key, let value):
            return "\(path): metadata \(key) has an invalid value \"\(value)\""
        case .unsupportedFormat(let path, let format):
            return "\(path) holds \(format) tiles; tilelayer serves png, jpg, webp and pbf"
        case .upstream(let url, let reason): return "upstream \(url) failed: \(reason)"
        case .notPMTiles(let path, let reason): return "\(path) is not a PMTiles v3 archive: \(reason)"
        case .changing(let path): return "\(path) is being written; try again shortly"
        case .damaged(let source, let reason): return "\(source) is damaged: \(reason)"
        case .outOfDescriptors(let path): return "cannot open \(path) now: the server is out of file descriptors"
        case .corruptArchive(let path, let tile, let reason):
            return "tile \(tile) of \(path): the archive is corrupt or truncated: \(reason)"
        }
    }
}
