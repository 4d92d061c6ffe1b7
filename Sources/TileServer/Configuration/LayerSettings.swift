import TileProviders
import TileGeometry

/// What a layer answers when its source has no tile.
public enum EmptyTileAnswer: String, Sendable, Equatable {
    /// 404, cacheable (the default).
    case notFound = "404"
    /// 204 No Content, cacheable.
    case noContent = "204"
    /// 200 with a transparent tile of the layer's raster format and the requested size; for a
    /// vector layer, 204 (an empty tile).
    case transparent
}

/// Per-layer cache tiers (`cache:`).
public struct LayerCacheSettings: Sendable, Equatable {
    /// Keep tiles in the shared memory cache; nil chooses by source kind.
    public var memory: Bool?
    /// Folder of the disk tier, or nil for none.
    public var disk: String?
    /// Use the shared Redis tier (`server.cache.redis`); nil or false: not.
    public var redis: Bool?
    /// Seconds within which a tile file, MBTiles or PMTiles archive changed on disk is served
    /// (SPEC "Freshness"): a tile kept in memory is checked against its file once this long has
    /// passed since the last check, an archive's path at most this often. Nil: the default.
    public var revalidateSeconds: Double?

    /// `revalidateSeconds` unless configured.
    public static let defaultRevalidateSeconds = 1.0

    /// No preference.
    public init(
        memory: Bool? = nil, disk: String? = nil, redis: Bool? = nil, revalidateSeconds: Double? = nil
    ) {
        self.memory = memory
        self.disk = disk
        self.redis = redis
        self.revalidateSeconds = revalidateSeconds
    }
}

/// One entry of `layers:`.
public struct LayerSettings: Sendable, Equatable {
    /// URL name, `[a-z][a-z0-9_-]*`.
    public var name: String
    /// Whether `/{z}/{x}/{y}.png` serves this layer.
    public var isDefault = false
    /// The source.
    public var source: SourceSettings
    /// Lowest zoom served; nil until resolved from the source.
    public var minZoom: Int?
    /// Highest zoom served; nil until resolved from the source.
    public var maxZoom: Int?
    /// Pixel size of the source's tiles: 256 or 512.
    public var tileSize = 256
    /// `Cache-Control: max-age`, seconds.
    public var maxAge = 86400
    /// Seconds a tile stays fresh in the memory cache (`ttl`); nil: `maxAge` for tiles that can
    /// change (upstream, derived from upstream), no limit for the others.
    public var ttl: Int?
    /// The answer for "no tile".
    public var emptyTile = EmptyTileAnswer.notFound
    /// Area covered, for TileJSON; nil until resolved from the source (else the world).
    public var bounds: GeoBounds?
    /// Box the `/static` camera target is clamped into.
    public var targetBounds: GeoBounds?
    /// Attribution text (TileJSON, the front page).
    public var attribution: String?
    /// A one-line description (TileJSON).
    public var description: String?
    /// Cache tiers.
    public var cache = LayerCacheSettings()
    /// Tile format (`format`); nil until resolved from the source (else PNG).
    public var format: TileFormat?
    /// Quality (1-100) of the JPEG or WebP tiles this layer derives or draws (`quality`); nil: the
    /// codecs' defaults (JPEG 85, WebP 80).
    public var quality: Int?
    /// A vector layer's `vector_layers` (JSON text) from its metadata, for TileJSON.
    public var vectorLayers: String?

    /// A layer with defaults.
    public init(name: String, source: SourceSettings) {
        self.name = name
        self.source = source
    }
}
