import TileProviders

/// A kind of tile source (`source: {type: <type>, …}`): reads its settings from the layer's
/// `source:` node. Built-in and custom kinds register alike in a `SourceRegistry`.
public protocol SourceKind: Sendable {
    /// The `source.type` it reads ("mbtiles").
    var type: String { get }

    /// The settings of a `source:` mapping (which holds `type`); a relative path is relative to
    /// `baseFolder`, the configuration file's folder. Errors name the key (`node.error(…)`).
    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource
}

/// One layer's configured source: compared on a reload, built into a provider, and asked
/// what it knows (the front page's few words, whether its tiles change, the layers it draws).
public protocol ConfiguredSource: Sendable {
    /// Where tiles come from in a few words, for the front page ("MBTiles").
    var summary: String { get }

    /// The layers this source is drawn from (a composite's members), built before it.
    var memberLayers: [String] { get }

    /// Whether the same key can give a different tile later (an upstream; a composite over one):
    /// such tiles expire from the caches after the layer's `maxAge`.
    func tilesChange(over members: [Layer]) -> Bool

    /// The source for a layer whose `format` key says `format` (a directory without its own
    /// template looks for files with the format's extension).
    func adopting(format: TileFormat) -> any ConfiguredSource

    /// Checks what it refers to among all configured layers (a composite's members); `key` is
    /// the source's key path.
    func checkReferences(in layers: [String: SourceSettings], key: String, file: String) throws(ConfigurationError)

    /// Why the built source cannot serve now, for `/readyz` (its folder or file went away or
    /// became unreadable); nil when it can. Blocking (`stat`, `access`): called on a worker.
    func readinessProblem() -> String?

    /// The provider and what the source knows of the layer. Throw a `ConfigurationError`
    /// (`context.error(…)`), or a `TileProviderError`, which becomes one at `source`.
    func build(in context: SourceBuildContext) throws -> BuiltSource

    /// Whether `other` is the same configuration (a reload keeps the layer built).
    func isEqual(to other: any ConfiguredSource) -> Bool
}

extension ConfiguredSource {
    /// None: most sources draw no other layer.
    public var memberLayers: [String] { [] }
    /// No: files, databases and generated tiles change only with a clear or a reload.
    public func tilesChange(over members: [Layer]) -> Bool { false }
    /// The same source: the format does not change where it looks.
    public func adopting(format: TileFormat) -> any ConfiguredSource { self }
    /// None known: generated tiles and custom sources always answer, an upstream is not probed
    /// (it may fail a moment and come back: its tiles are then 503s or stale copies).
    public func readinessProblem() -> String? { nil }
    /// Nothing to check.
    public func checkReferences(in layers: [String: SourceSettings], key: String, file: String) throws(ConfigurationError) {}
}

extension ConfiguredSource where Self: Equatable {
    /// Equal values of the same type.
    public func isEqual(to other: any ConfiguredSource) -> Bool {
        (other as? Self) == self
    }
}
