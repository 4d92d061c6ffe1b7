import TileProviders

/// `source: {type: pmtiles, path}`: a local PMTiles v3 archive, whose header and JSON metadata
/// fill the layer.
public struct PMTilesSource: ConfiguredSource, Equatable {
    /// The archive, absolute.
    public var path: String

    /// A local archive.
    public init(path: String) {
        self.path = path
    }

    public var summary: String { "PMTiles" }

    /// The file is there and readable.
    public func readinessProblem() -> String? { LayerReadiness.problem(at: path, folder: false) }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        let provider = try PMTilesTileProvider(path: path, recheckInterval: .seconds(context.revalidateSeconds))
        let format: SourceFormat?
        do {
            format = try Self.format(provider.header, metadata: provider.metadata.values, path: path)
        } catch {
            throw context.error("source", error.description)
        }
        return BuiltSource(source: .sync(provider), format: format, metadata: SourceMetadata(provider.metadata))
    }

    /// The format a PMTiles header states (for tile type "unknown", as converters from MBTiles
    /// write for `jpg`, the JSON metadata's `format`); a type or tile compression tilelayer does
    /// not serve is an error naming the archive.
    static func format(_ header: PMTilesHeader, metadata: [String: String], path: String) throws(PMTilesSourceError) -> SourceFormat? {
        let format: TileFormat
        var origin = "the PMTiles header of \(path)"
        switch header.tileType {
        case .unknown:
            guard let named = metadata["format"].flatMap({ TileFormat(name: $0) }) else { return nil }
            format = named
            origin = "the PMTiles metadata format of \(path)"
        case .png: format = .png
        case .jpeg: format = .jpg
        case .webp: format = .webp
        case .mvt: format = .pbf
        case .avif: throw .tileTypeNotServed(path: path, type: "avif")
        }
        switch header.tileCompression {
        case .unknown, .none: break
        case .gzip where format == .pbf: break
        default: throw .compressionNotServed(path: path, compression: "\(header.tileCompression)", format: format)
        }
        return SourceFormat(format, from: origin)
    }
}
