import Foundation
import TileProviders

extension SourceSettings {
    /// Reads `source:` with the kind its `type` names in `registry`.
    init(node: ConfigNode, baseFolder: String, registry: SourceRegistry) throws(ConfigurationError) {
        guard case .mapping(let mapping) = node.node, let typeNode = mapping["type"], let type = typeNode.string else {
            throw node.error("a source needs a type (\(registry.types.joined(separator: ", ")))")
        }
        guard let kind = registry.kind(for: type) else {
            throw node.error("unknown source type \"\(type)\" (known: \(registry.types.joined(separator: ", ")))")
        }
        self.init(try kind.settings(from: node, baseFolder: baseFolder))
    }
}
