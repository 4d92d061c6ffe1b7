import CoreMetrics
import Logging
import TileGeometry
import TileProviders

/// Builds one layer's source from its settings and fills in what the source knows
/// (zoom range, bounds, attribution) where the configuration is silent.
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
        let source: TileSource
        var variables: [URLTemplateVariable] = []
        var stack: [Layer] = []
        do {
            switch settings.source {
            case .directory(let path, let template):
                source = .sync(DirectoryTileProvider(root: path, template: try DirectoryPathTemplate(template)))
                if template.hasPrefix("{z}/"), let found = LayerTable.zoomFolders(in: path) {
                    settings.fillZoomRange(found)
                }
            case .mbtiles(let path):
                let provider = try MBTilesTileProvider(path: path)
                source = .sync(provider)
                settings.fill(from: provider.metadata)
            case .pmtiles(let path):
                let provider = try PMTilesTileProvider(path: path)
                // Every layer is PNG today (TilePipeline checks the signature); other formats come with issue 15.
                guard provider.header.tileType == .png else {
                    throw error("source", "\(path): tile type \(provider.header.tileType) is not served yet; PNG only")
                }
                source = .sync(provider)
                settings.fill(from: provider.metadata)
            case .remotePMTiles(let url):
                // Read lazily: the header's zoom range and bounds do not fill the layer (set them in the configuration).
                source = .async(PMTilesRemoteTileProvider(url: url, logger: logger))
            case .url(let url):
                let template = try url.parsedTemplate()
                variables = url.variables
                source = url.isLocal
                    ? .sync(try FileTemplateTileProvider(template: template))
                    : .async(URLTileProvider(template: template, settings: url.upstream, logger: logger,
                                           metrics: UpstreamMetrics(factory: metrics, dimensions: [("layer", settings.name)])))
            case .debug:
                source = .sync(DebugTileProvider(tileSize: settings.tileSize))
            case .composite(let list):
                let sorted = list.sorted { $0.zIndex < $1.zIndex }
                stack = sorted.map { members[$0.layer]! }
                let drawn = zip(sorted, stack).map { member, layer in
                    CompositeTileProvider.Member(source: layer.source, opacity: member.opacity, name: member.layer)
                }
                source = .async(CompositeTileProvider(members: drawn, tileSize: settings.tileSize, logger: logger))
            case .custom(let type, let options):
                guard let factory = registry.factory(for: type) else {
                    throw error("source.type", "unknown source type \"\(type)\"")
                }
                source = try factory(options, logger)
            }
        } catch let problem as TileProviderError {
            throw error("source", problem.description)
        } catch let problem as ConfigurationError {
            throw problem
        } catch {
            throw self.error("source", "\(error)")
        }
        settings.minZoom = settings.minZoom ?? 0
        settings.maxZoom = max(settings.maxZoom ?? Layer.defaultMaxZoom, settings.minZoom ?? 0)
        return Layer(settings: settings, source: source, variables: variables, configured: original, members: stack,
                     previous: previous)
    }
}

extension LayerSettings {
    mutating func fillZoomRange(_ range: ClosedRange<Int>) {
        minZoom = minZoom ?? range.lowerBound
        maxZoom = maxZoom ?? range.upperBound
    }

    /// MBTiles metadata feeds what the configuration leaves out.
    mutating func fill(from metadata: MBTilesMetadata) {
        if let low = metadata.minZoom, let high = metadata.maxZoom, low <= high { fillZoomRange(low ... high) }
        bounds = bounds ?? metadata.bounds
        attribution = attribution ?? metadata.attribution
        description = description ?? metadata.description
    }
}
