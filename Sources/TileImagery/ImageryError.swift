import TileProviders

/// What goes wrong with imagery: at start-up (a raster that cannot be opened or served) or for
/// one tile (a read or a warp that failed). Messages name the raster and, for a tile, `z/x/y`;
/// GDAL's own words are redacted of secrets (`SecretRedaction`).
public enum ImageryError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The raster could not be opened: missing, unreachable, refused (403), not found (404), not a raster.
    case cannotOpen(location: String, reason: String)
    /// The raster opened but cannot be served as configured (no georeferencing, a band that does not exist…).
    case unusable(location: String, reason: String)
    /// Reading or warping tile `tile` (z/x/y) failed.
    case tileFailed(location: String, tile: String, reason: String)
    /// An object could not be read (a range of a PMTiles archive on S3).
    case objectRead(location: String, reason: String)

    public var description: String {
        switch self {
        case .cannotOpen(let location, let reason): return "cannot open the raster \(location): \(reason)"
        case .unusable(let location, let reason): return "the raster \(location) cannot be served: \(reason)"
        case .tileFailed(let location, let tile, let reason): return "tile \(tile) of \(location) failed: \(reason)"
        case .objectRead(let location, let reason): return "cannot read \(location): \(reason)"
        }
    }

    /// As a provider error: a failed tile is a bad gateway (502) naming the tile.
    var providerError: TileProviderError {
        switch self {
        case .tileFailed(let location, let tile, let reason):
            return .upstream(url: location, reason: "tile \(tile): \(reason)")
        case .objectRead(let location, let reason):
            return .upstream(url: location, reason: reason)
        case .cannotOpen, .unusable:
            return .invalidConfiguration(description)
        }
    }
}
