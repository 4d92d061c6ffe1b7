import Logging
import TileProviders

/// Provider types registered by Swift users: `source: {type: NAME, …options}` builds one.
public struct SourceRegistry: Sendable {
    /// Builds a source from a layer's scalar options; throw `TileProviderError.invalidConfiguration`
    /// with a message an operator can act on.
    public typealias Factory = @Sendable (_ options: [String: String], _ logger: Logger) throws(TileProviderError) -> TileSource

    private var factories: [String: Factory] = [:]

    /// An empty registry (the built-in types need no registration).
    public init() {}

    /// Registers `type`; configurations may then use `source: {type: <type>, …}`.
    public mutating func register(_ type: String, factory: @escaping Factory) {
        factories[type] = factory
    }

    /// Registered type names, sorted.
    public var types: [String] { factories.keys.sorted() }

    func factory(for type: String) -> Factory? { factories[type] }
}
