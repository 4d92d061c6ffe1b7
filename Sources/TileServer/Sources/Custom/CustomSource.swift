import TileProviders

/// `source: {type: NAME, …}` for a type registered with a factory closure
/// (`SourceRegistry.register(_:factory:)`): its other keys as text.
public struct CustomSource: ConfiguredSource, Equatable {
    /// The registered type.
    public var type: String
    /// The source's other keys, as text.
    public var options: [String: String]

    /// A custom source.
    public init(type: String, options: [String: String]) {
        self.type = type
        self.options = options
    }

    public var summary: String { type }

    /// Built by the factory the build's registry holds for `type`.
    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        guard let kind = context.registry.kind(for: type) as? CustomSourceKind else {
            throw context.error("source.type", "unknown source type \"\(type)\"")
        }
        return BuiltSource(source: try kind.factory(options, context.logger))
    }
}

/// Reads a registered type's scalar options and builds it with its factory.
struct CustomSourceKind: SourceKind {
    let type: String
    let factory: SourceRegistry.Factory

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        var options: [String: String] = [:]
        for (key, value) in try node.freeMapping() where key != "type" { options[key] = try value.string() }
        return CustomSource(type: type, options: options)
    }
}
