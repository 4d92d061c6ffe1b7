import Sockets
import Synchronization
import TileGeometry
import TileProviders

/// A configured layer, ready to serve: its settings with zoom range and bounds resolved, and
/// its source. A class: requests pass it around by reference.
public final class Layer: Sendable {
    /// The settings (minZoom and maxZoom are set).
    public let settings: LayerSettings
    /// The settings as configured, before the source filled anything in (a reload compares these).
    public let configured: LayerSettings
    /// Where its tiles come from.
    public let source: TileSource
    /// `Cache-Control` of its tiles, made once.
    public let cacheControl: String
    /// Named variables its tile URLs accept in the query string.
    public let variables: [String: URLTemplateVariable]
    /// The disk tier (`cache.disk`), if it has one: the previous build's when a reload rebuilt
    /// the layer over the same folder (one tier, one write queue and one generation per folder).
    let diskTier: LayerDiskTier?
    /// This build of the layer: unique in the process, so a rebuilt layer never meets the old
    /// one's cached answers (see `TileGeneration`).
    public let build: Int
    /// The layers a composite is drawn from, bottom first (empty for other layers).
    public let members: [Layer]
    /// Full clears of this layer's cache so far.
    private let clearCount = Atomic<Int>(0)
    /// Seconds a tile of this layer stays fresh in memory: the layer's `ttl`, else its `maxAge`
    /// when its tiles can change (an upstream, a composite over one); nil: until evicted or cleared.
    let memoryLifetime: Int?
    /// The source, when its tiles are files and the layer has no disk tier: a native tile is
    /// read, or sent, straight from its file (`TileService+FileTiles`).
    let fileSource: (any FileTileProvider)?
    /// Nanoseconds after which a cached tile read from files is checked against them again
    /// (`cache.revalidateSeconds`); nil when the source tells no versions (nothing to check).
    let revalidateInterval: UInt64?
    /// Cached tiles checked against their files before this (`Monotonic.nanoseconds`) are checked
    /// again before they are served: set by a reload that keeps the layer (`recheckSources`).
    private let recheckedAt = Atomic<UInt64>(0)
    /// Whether the layer keeps its tiles in the shared memory cache (`cache.memory`).
    var cachesInMemory: Bool { settings.cache.memory ?? true }

    /// The layer's name.
    public var name: String { settings.name }
    /// Its tiles' format.
    public var format: TileFormat { settings.format ?? .png }
    /// Lowest zoom served.
    public var minZoom: Int { settings.minZoom ?? 0 }
    /// Highest zoom served.
    public var maxZoom: Int { settings.maxZoom ?? Layer.defaultMaxZoom }

    /// Highest zoom when neither the configuration nor the source says.
    public static let defaultMaxZoom = 22

    /// What TileJSON describes: `settings`, plus what a source read lazily (a remote PMTiles
    /// archive, whose header is not read at start-up) has told since its first successful read,
    /// where the configuration is silent: zoom range, bounds, attribution, description,
    /// `vector_layers` and the archive's center (nil: the middle of the bounds). Tile requests
    /// keep the zoom range of `settings`.
    var described: (settings: LayerSettings, center: MBTilesMetadata.Center?) {
        guard case .async(let provider) = source, let remote = provider as? PMTilesRemoteTileProvider,
              let metadata = remote.archiveMetadata else { return (settings, nil) }
        var filled = configured
        filled.fill(from: SourceMetadata(metadata))
        var described = settings
        described.minZoom = filled.minZoom ?? settings.minZoom
        described.maxZoom = max(filled.maxZoom ?? settings.maxZoom ?? Layer.defaultMaxZoom, described.minZoom ?? 0)
        described.bounds = filled.bounds
        described.attribution = filled.attribution
        described.description = filled.description
        described.vectorLayers = filled.vectorLayers
        return (described, configured.bounds == nil ? metadata.center : nil)
    }

    /// A layer.
    public convenience init(
        settings: LayerSettings, source: TileSource, variables: [URLTemplateVariable] = [], configured: LayerSettings? = nil
    ) {
        self.init(settings: settings, source: source, variables: variables, configured: configured, members: [], previous: nil)
    }

    /// A layer over `members` (a composite's), taking over the disk tier of `previous` (the
    /// layer it replaces on a reload) when that tier uses the same folder.
    init(
        settings: LayerSettings, source: TileSource, variables: [URLTemplateVariable], configured: LayerSettings?,
        members: [Layer], previous: Layer?
    ) {
        self.build = TileGeneration.nextBuild()
        self.members = members
        self.memoryLifetime = settings.ttl ?? (settings.source.value.tilesChange(over: members) ? settings.maxAge : nil)
        self.settings = settings
        self.configured = configured ?? settings
        self.cacheControl = "public, max-age=\(settings.maxAge)"
        self.source = source
        self.variables = Dictionary(variables.map { ($0.name, $0) }, uniquingKeysWith: { first, _ in first })
        self.diskTier = settings.cache.disk.map { folder in
            if let kept = previous?.diskTier, kept.store.root == LayerDiskTier.root(folder: folder, layer: settings.name) {
                return kept
            }
            return LayerDiskTier(folder: folder, layer: settings.name)
        }
        // A source whose tiles go out as stored, past the pipeline's fills: not vector tiles,
        // which may be stored gzip-compressed and be decompressed per client.
        if diskTier == nil, (settings.format ?? .png) != .pbf, case .sync(let provider as any FileTileProvider) = source {
            fileSource = provider
        } else {
            fileSource = nil
        }
        let versioned: Bool
        switch source {
        case .sync(let provider): versioned = provider is any VersionedTileProvider
        case .async(let provider): versioned = provider is any AsyncVersionedTileProvider
        }
        revalidateInterval = versioned
            ? Monotonic.nanoseconds(settings.cache.revalidateSeconds ?? LayerCacheSettings.defaultRevalidateSeconds) : nil
    }

    /// When cached tiles of this layer checked before it must be checked again (see `recheckedAt`).
    var recheckedSince: UInt64 { recheckedAt.load(ordering: .relaxed) }

    /// Checks the files behind the layer now (an archive replaced on disk is reopened) and has
    /// its cached tiles checked against them before they are served again: a clear-cache and a
    /// reload are seen by the very next request (SPEC "Freshness"). Blocking: a `stat`.
    func recheckSources() {
        if case .sync(let provider as any VersionedTileProvider) = source { provider.recheck() }
        recheckedAt.store(Monotonic.nanoseconds, ordering: .relaxed)
    }

    /// The generation of answers asked for now: this build, and the clears of the layer and its members.
    var generation: TileGeneration {
        TileGeneration(build: build, clears: members.reduce(clearCount.load(ordering: .acquiring)) {
            $0 + $1.clearCount.load(ordering: .acquiring)
        })
    }

    /// Counts a full clear: every answer cached before it (this layer's, and a composite's over
    /// it) is from an older generation from now on.
    func countClear() {
        clearCount.add(1, ordering: .releasing)
    }

    /// Whether tiles of `scale` (1, or 2 for @2x) are the source's own, not derived.
    func servesNatively(scale: Int) -> Bool {
        source.rendersEveryScale || (scale == 1) == (settings.tileSize == 256)
    }

    /// The tile for a requested coordinate: x wrapped, nil when z or y is outside the layer.
    public func tileCoordinate(z: Int, x: Int, y: Int) -> TileCoordinate? {
        guard z >= minZoom, z <= maxZoom else { return nil }
        return TileCoordinate(z: z, x: x, y: y).normalized()
    }

    /// The variables of a tile request from its query items; a layer without variables ignores
    /// the query (cache-busting parameters pass), one with variables refuses unknown names and
    /// values not allowed.
    public func variableValues(from query: [(name: String, value: String)]) -> Result<[String: String], TileVariableError> {
        guard !variables.isEmpty else { return .success([:]) }
        var values: [String: String] = [:]
        for (name, value) in query {
            guard let variable = variables[name] else {
                return .failure(.undeclared(name: name, declared: variables.keys.sorted()))
            }
            guard variable.allows(value) else {
                return .failure(.notAllowed(name: name, value: value, allowed: variable.allowedValues))
            }
            values[name] = value
        }
        for (name, variable) in variables where values[name] == nil { values[name] = variable.defaultValue }
        return .success(values)
    }
}

/// A query parameter a layer does not accept.
public enum TileVariableError: Error, Equatable, CustomStringConvertible {
    case undeclared(name: String, declared: [String])
    case notAllowed(name: String, value: String, allowed: [String]?)

    public var description: String {
        switch self {
        case .undeclared(let name, let declared):
            return "unknown parameter \"\(name)\" (this layer takes: \(declared.joined(separator: ", ")))"
        case .notAllowed(let name, let value, let allowed):
            let choice = allowed.map { "one of \($0.joined(separator: ", "))" } ?? "letters, digits, _ and -"
            return "\(name)=\"\(value)\" is not allowed (\(choice))"
        }
    }
}
