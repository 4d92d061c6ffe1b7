import CoreMetrics
import Foundation
import Logging
import TileGeometry
import TileImagery
import TileProviders

/// Every layer, built once from the configuration and then only read (no locks).
public struct LayerTable: Sendable {
    /// Layers in configuration order.
    public let layers: [Layer]
    /// The layer of `/{z}/{x}/{y}.png`, if one is marked default.
    public let defaultLayer: Layer?
    private let byName: [String: Layer]

    /// A table over built layers.
    public init(layers: [Layer]) {
        self.layers = layers
        self.byName = Dictionary(uniqueKeysWithValues: layers.map { ($0.name, $0) })
        self.defaultLayer = layers.first { $0.settings.isDefault }
    }

    /// The layer called `name`.
    public subscript(name: String) -> Layer? { byName[name] }

    /// Builds every layer's source; a source that cannot work is a configuration error.
    /// Upstream sources count into `metrics`. A layer of `previous` whose configured settings are
    /// unchanged (and, for a composite, whose members are all unchanged) is kept as it is: its
    /// source, open files and connections carry over a reload.
    public static func build(
        from configuration: Configuration, registry: SourceRegistry = SourceRegistry(), logger: Logger,
        metrics: any MetricsFactory = MetricsSystem.factory, reusing previous: LayerTable? = nil
    ) throws(ConfigurationError) -> LayerTable {
        ImageryEnvironment.configure(objectStore: configuration.server.objectStore, cacheBytes: configuration.server.gdalCacheBytes)
        var built: [String: Layer] = [:]
        var layers: [Layer] = []
        // Sources drawn from other layers (composites) last: they are built over their members.
        let order = configuration.layers.indices.sorted {
            configuration.layers[$0].source.memberLayers.isEmpty && !configuration.layers[$1].source.memberLayers.isEmpty
        }
        for index in order {
            let settings = configuration.layers[index]
            let builder = LayerBuilder(key: "layers[\(index)]", file: configuration.file, registry: registry, logger: logger,
                                       metrics: metrics)
            let before = previous?[settings.name]
            if let old = before, old.configured == settings,
               settings.source.memberLayers.allSatisfy({ name in built[name] != nil && built[name] === previous?[name] }) {
                built[settings.name] = old
                continue
            }
            let layer = try builder.build(settings, members: built, previous: before)
            built[layer.name] = layer
        }
        for settings in configuration.layers { layers.append(built[settings.name]!) }
        return LayerTable(layers: layers)
    }

    /// Whether this table holds the very layer `layer` (the same build, so the same cached tiles).
    public func keeps(_ layer: Layer) -> Bool {
        self[layer.name] === layer
    }

    /// The composites drawn from the layer called `name`.
    func composites(over name: String) -> [Layer] {
        layers.filter { layer in layer.members.contains { $0.name == name } }
    }
}
