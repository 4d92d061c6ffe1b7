import TileProviders

/// `source: {type: mbtiles, path}`: an MBTiles 1.3 file, whose metadata fills the layer.
public struct MBTilesSource: ConfiguredSource, Equatable {
    /// The file, absolute.
    public var path: String

    /// An MBTiles file.
    public init(path: String) {
        self.path = path
    }

    public var summary: String { "MBTiles" }

    /// The file is there and readable.
    public func readinessProblem() -> String? { LayerReadiness.problem(at: path, folder: false) }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        let provider = try MBTilesTileProvider(path: path, recheckInterval: .seconds(context.revalidateSeconds))
        return BuiltSource(
            source: .sync(provider),
            format: provider.metadata.tileFormat.map { SourceFormat($0, from: "the format metadata of \(path)") },
            metadata: SourceMetadata(provider.metadata))
    }
}

/// Reads `source: {type: mbtiles, path: FILE}`.
struct MBTilesSourceKind: SourceKind {
    let type = "mbtiles"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        let keys = try node.mapping(allowed: ["type", "path"])
        return MBTilesSource(path: try node.existingPath(keys["path"], baseFolder: baseFolder, folder: false))
    }
}
