import TileProviders

extension URLSourceSettings: ConfiguredSource {
    public var summary: String { isLocal ? "URL template · files" : "URL template · upstream" }

    /// An upstream's tiles change; local files only with a clear or a reload.
    public func tilesChange(over members: [Layer]) -> Bool { !isLocal }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        let parsed = try parsedTemplate()
        let provider: TileSource = isLocal
            ? .sync(try FileTemplateTileProvider(template: parsed))
            : .async(URLTileProvider(template: parsed, settings: upstream, logger: context.logger,
                                     metrics: UpstreamMetrics(factory: context.metrics, dimensions: [("layer", context.layerName)])))
        return BuiltSource(source: provider, variables: variables,
                           format: TileFormat(pathExtensionOf: template).map { SourceFormat($0, from: "the template \"\(template)\"") })
    }
}
