import Foundation
import TileGeometry
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

    /// Builds every layer's provider; a source that cannot work is a configuration error.
    public static func build(from configuration: Configuration) throws(ConfigurationError) -> LayerTable {
        var layers: [Layer] = []
        for (index, settings) in configuration.layers.enumerated() {
            layers.append(try buildLayer(settings, key: "layers[\(index)]", file: configuration.file))
        }
        return LayerTable(layers: layers)
    }

    private static func buildLayer(_ settings: LayerSettings, key: String, file: String) throws(ConfigurationError) -> Layer {
        var settings = settings
        let provider: any SyncTileProvider
        switch settings.source {
        case .directory(let path, let template):
            let parsed: DirectoryPathTemplate
            do {
                parsed = try DirectoryPathTemplate(template)
            } catch {
                throw ConfigurationError(file: file, key: "\(key).source.template", message: error.description)
            }
            provider = DirectoryTileProvider(root: path, template: parsed)
            if settings.minZoom == nil || settings.maxZoom == nil, template.hasPrefix("{z}/"),
               let found = zoomFolders(in: path) {
                settings.minZoom = settings.minZoom ?? found.lowerBound
                settings.maxZoom = settings.maxZoom ?? found.upperBound
            }
        }
        settings.minZoom = settings.minZoom ?? 0
        settings.maxZoom = max(settings.maxZoom ?? Layer.defaultMaxZoom, settings.minZoom ?? 0)
        return Layer(settings: settings, provider: provider)
    }

    /// The range of numeric sub-folder names (zoom levels) of a tile folder.
    static func zoomFolders(in path: String) -> ClosedRange<Int>? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let zooms = names.compactMap { name -> Int? in
            guard let zoom = Int(name), zoom >= 0, zoom <= TileCoordinate.maxZoom else { return nil }
            return zoom
        }
        guard let low = zooms.min(), let high = zooms.max() else { return nil }
        return low ... high
    }
}
