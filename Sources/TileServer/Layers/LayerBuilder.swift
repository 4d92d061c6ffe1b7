import CoreMetrics
import Logging
import TileGeometry
import TileProviders

/// Builds one layer's source from its settings and fills in what the source knows
/// (zoom range, bounds, attribution) where the configuration is silent. Every kind of source
/// builds itself (`ConfiguredSource.build(in:)`); this knows none of them.
struct LayerBuilder {
    let key: String
    let file: String
    let registry: SourceRegistry
    let logger: Logger
    /// Where upstream sources count requests and failures.
    var metrics: any MetricsFactory = MetricsSystem.factory

    func error(_ subkey: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, key: "\(key).\(subkey)", message: message)
    }

    /// The layer of `original` over the already built `members` (a composite's), taking over
    /// the disk tier of `previous` (the layer it replaces on a reload) when the folder is the same.
    func build(_ original: LayerSettings, members: [String: Layer], previous: Layer? = nil) throws(ConfigurationError) -> Layer {
        var settings = original
        let context = SourceBuildContext(
            layerName: settings.name, tileSize: settings.tileSize, quality: settings.quality,
            revalidateSeconds: settings.cache.revalidateSeconds ?? LayerCacheSettings.defaultRevalidateSeconds,
            layers: members, registry: registry, logger: logger, metrics: metrics, key: key, file: file)
        let built: BuiltSource
        do {
            built = try settings.source.value.build(in: context)
        } catch let problem as TileProviderError {
            throw error("source", problem.description)
        } catch let problem as ConfigurationError {
            throw problem
        } catch {
            throw self.error("source", "\(error)")
        }
        settings.fill(from: built.metadata)
        try resolveFormat(&settings, known: built.format)
        settings.minZoom = settings.minZoom ?? 0
        settings.maxZoom = max(settings.maxZoom ?? Layer.defaultMaxZoom, settings.minZoom ?? 0)
        let layer = Layer(settings: settings, source: built.source, variables: built.variables, configured: original,
                          members: built.members, previous: previous)
        // A key that would change nothing is a mistake to point out, not to take in silence.
        if original.cache.revalidateSeconds != nil, layer.revalidateInterval == nil {
            throw error("cache.revalidateSeconds", "has no effect on this layer: its source reads no files "
                + "(an upstream's tiles expire after ttl or maxAge instead)")
        }
        return layer
    }
}
