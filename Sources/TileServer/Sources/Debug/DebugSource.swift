import TileProviders

/// `source: {type: debug}`: generated PNG tiles showing their border and coordinates.
public struct DebugSource: ConfiguredSource, Equatable {
    /// A debug source.
    public init() {}

    public var summary: String { "generated (debug)" }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        BuiltSource(source: .sync(DebugTileProvider(tileSize: context.tileSize)),
                    format: SourceFormat(.png, from: "a debug source (it draws PNG)"))
    }
}

/// Reads `source: {type: debug}`.
struct DebugSourceKind: SourceKind {
    let type = "debug"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        _ = try node.mapping(allowed: ["type"])
        return DebugSource()
    }
}
