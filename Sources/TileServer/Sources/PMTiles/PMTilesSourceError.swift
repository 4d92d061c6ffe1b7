import TileProviders

/// A PMTiles archive tilelayer can read but not serve (a start-up error at the layer's `source`).
public enum PMTilesSourceError: Error, Equatable, CustomStringConvertible {
    /// Tiles of a type tilelayer does not serve (avif).
    case tileTypeNotServed(path: String, type: String)
    /// Tiles compressed in a way they cannot go out as stored.
    case compressionNotServed(path: String, compression: String, format: TileFormat)

    public var description: String {
        switch self {
        case .tileTypeNotServed(let path, let type):
            return "\(path): tile type \(type) is not served (png, jpg, webp and pbf are)"
        case .compressionNotServed(let path, let compression, let format):
            return "\(path): tile compression \(compression) of \(format) tiles is not served "
                + "(tiles go out as stored: none, or gzip for vector tiles)"
        }
    }
}
