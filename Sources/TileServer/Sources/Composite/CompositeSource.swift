import TileProviders

/// `source: {type: composite, layers: [{layer, zIndex, opacity}]}`: other layers stacked by
/// zIndex with opacity, drawn as PNG.
public struct CompositeSource: ConfiguredSource, Equatable {
    /// The members, as configured.
    public var members: [CompositeMember]

    /// A composite of `members`.
    public init(members: [CompositeMember]) {
        self.members = members
    }

    /// The members bottom first.
    var stacked: [CompositeMember] { members.sorted { $0.zIndex < $1.zIndex } }

    public var summary: String { "composite of " + stacked.map(\.layer).joined(separator: " + ") }

    public var memberLayers: [String] { members.map(\.layer) }

    /// Its tiles change when a member's do.
    public func tilesChange(over members: [Layer]) -> Bool {
        members.contains { $0.memoryLifetime != nil }
    }

    /// Every member names another, non-composite layer.
    public func checkReferences(in layers: [String: SourceSettings], key: String, file: String) throws(ConfigurationError) {
        for (index, member) in members.enumerated() {
            let memberKey = "\(key).layers[\(index)].layer"
            guard let source = layers[member.layer] else {
                throw ConfigurationError(file: file, key: memberKey, message: "no layer named \"\(member.layer)\"")
            }
            if !source.memberLayers.isEmpty {
                throw ConfigurationError(file: file, key: memberKey, message: "a composite cannot contain another composite (\(member.layer))")
            }
        }
    }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        let sorted = stacked
        let stack = sorted.map { context.layers[$0.layer]! }
        // A composite draws its members: each must be a format that can be decoded.
        for member in stack where !TileImageCodec.canDerive(member.format) {
            throw context.error("source.layers", "layer \"\(member.name)\" (\(member.format)) cannot be a composite member: "
                                + TileImageCodec.Unsupported(format: member.format).description)
        }
        let drawn = zip(sorted, stack).map { member, layer in
            CompositeTileProvider.Member(source: layer.source, opacity: member.opacity, name: member.layer, format: layer.format)
        }
        return BuiltSource(source: .async(CompositeTileProvider(members: drawn, tileSize: context.tileSize, logger: context.logger)),
                           members: stack, format: SourceFormat(.png, from: "a composite source (it draws PNG)"))
    }
}

/// Reads `source: {type: composite, layers: [{layer: NAME, zIndex: N, opacity: 0…1}, …]}`.
struct CompositeSourceKind: SourceKind {
    let type = "composite"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        let keys = try node.mapping(allowed: ["type", "layers"])
        guard let list = keys["layers"] else { throw node.error("a composite source needs layers") }
        var members: [CompositeMember] = []
        for item in try list.sequence() {
            let fields = try item.mapping(allowed: ["layer", "zIndex", "opacity"])
            guard let name = fields["layer"] else { throw item.error("a composite member needs a layer") }
            members.append(CompositeMember(
                layer: try name.string(), zIndex: try fields["zIndex"]?.int(in: -1_000_000 ... 1_000_000) ?? members.count,
                opacity: try fields["opacity"]?.double(in: 0 ... 1) ?? 1))
        }
        guard !members.isEmpty else { throw list.error("a composite source needs at least one layer") }
        return CompositeSource(members: members)
    }
}
