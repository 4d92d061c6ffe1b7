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
        var known: SourceFormat?
        do {
            switch settings.source {
            case .directory(let path, let template):
                source = .sync(DirectoryTileProvider(root: path, template: try DirectoryPathTemplate(template)))
                known = TileFormat(pathExtensionOf: template).map { SourceFormat($0, from: "the path template \"\(template)\"") }
                if template.hasPrefix("{z}/"), let found = LayerTable.zoomFolders(in: path) {
                    settings.fillZoomRange(found)
                }
            case .mbtiles(let path):
                let provider = try MBTilesTileProvider(path: path)
                source = .sync(provider)
                settings.fill(from: provider.metadata)
                known = provider.metadata.tileFormat.map { SourceFormat($0, from: "the format metadata of \(path)") }
            case .pmtiles(let path):
                let provider = try PMTilesTileProvider(path: path)
                known = try pmtilesFormat(provider.header, metadata: provider.metadata.values, path: path)
                source = .sync(provider)
                settings.fill(from: provider.metadata)
            case .remotePMTiles(let url):
                // Read lazily: the header and metadata fill only TileJSON, once read (`Layer.described`).
                source = .async(PMTilesRemoteTileProvider(url: url, logger: logger))
            case .url(let url):
                let template = try url.parsedTemplate()
                variables = url.variables
                known = TileFormat(pathExtensionOf: url.template).map { SourceFormat($0, from: "the template \"\(url.template)\"") }
                source = url.isLocal
                    ? .sync(try FileTemplateTileProvider(template: template))
                    : .async(URLTileProvider(template: template, settings: url.upstream, logger: logger,
                                           metrics: UpstreamMetrics(factory: metrics, dimensions: [("layer", settings.name)])))
            case .debug:
                source = .sync(DebugTileProvider(tileSize: settings.tileSize))
                known = SourceFormat(.png, from: "a debug source (it draws PNG)")
            case .composite(let list):
                let sorted = list.sorted { $0.zIndex < $1.zIndex }
                stack = sorted.map { members[$0.layer]! }
                try checkMembers(stack)
                let drawn = zip(sorted, stack).map { member, layer in
                    CompositeTileProvider.Member(source: layer.source, opacity: member.opacity, name: member.layer,
                                                 format: layer.format)
                }
                known = SourceFormat(.png, from: "a composite source (it draws PNG)")
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
        try resolveFormat(&settings, known: known)
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
        vectorLayers = vectorLayers ?? metadata.vectorLayersJSON
    }
}
