import Logging
import TileProviders

/// Every source kind a configuration may name (`source: {type: NAME, …}`): the built-in kinds,
/// then those registered by Swift users, all read and built the same way.
public struct SourceRegistry: Sendable {
    /// Builds a source from a layer's scalar options; throw `TileProviderError.invalidConfiguration`
    /// with a message an operator can act on.
    public typealias Factory = @Sendable (_ options: [String: String], _ logger: Logger) throws(TileProviderError) -> TileSource

    /// The kinds every registry starts with, in the order error messages list them.
    static let builtIn: [any SourceKind] = [
        DirectorySourceKind(), MBTilesSourceKind(), PMTilesSourceKind(), URLSourceKind(), DebugSourceKind(),
        CompositeSourceKind(), GeoTIFFSourceKind(),
    ]

    private var kinds: [String: any SourceKind] = [:]
    private var builtInTypes: [String] = []

    /// The built-in kinds.
    public init() {
        for kind in Self.builtIn { register(kind) }
        builtInTypes = Self.builtIn.map(\.type)
    }

    /// Registers `kind`; configurations may then use `source: {type: <kind.type>, …}`. A kind
    /// registered under a built-in type replaces it.
    public mutating func register(_ kind: any SourceKind) {
        kinds[kind.type] = kind
    }

    /// Registers `type` built by `factory` from the source's other keys, as text.
    public mutating func register(_ type: String, factory: @escaping Factory) {
        register(CustomSourceKind(type: type, factory: factory))
    }

    /// Every type name: the built-in ones, then the others sorted.
    public var types: [String] {
        builtInTypes + kinds.keys.filter { !builtInTypes.contains($0) }.sorted()
    }

    /// The kind registered as `type`.
    public func kind(for type: String) -> (any SourceKind)? { kinds[type] }
}
