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
        let context = SourceBuildContext(layerName: settings.name, tileSize: settings.tileSize,
                                         readsOnEventLoops: Layer.readsOnEventLoops(settings),
                                         residencySeconds: Layer.residencySeconds(settings), layers: members,
                                         registry: registry, logger: logger, metrics: metrics, key: key, file: file)
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
        if original.cache.openFileSeconds != nil, layer.openFiles == nil {
            throw error("cache.openFileSeconds", "has no effect on this layer: it applies to a folder layer whose "
                + "files are sent as they are stored (a directory source, no cache.disk, a format other than pbf)")
        }
        if original.cache.residencySeconds != nil, layer.openFiles == nil,
           layer.archiveWithoutWaiting?.asksThePageCache != true {
            throw error("cache.residencySeconds", "has no effect on this layer: it applies to a folder layer whose "
                + "files are sent as they are stored (as cache.openFileSeconds does) and to an MBTiles layer without "
                + "cache.disk (a format other than pbf), whose tiles the event loops lend where they lie")
        }
        return layer
    }
}
