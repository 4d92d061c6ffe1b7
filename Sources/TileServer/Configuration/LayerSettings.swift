import TileGeometry

/// What a layer answers when its source has no tile.
public enum EmptyTileAnswer: String, Sendable, Equatable {
    /// 404, cacheable (the default).
    case notFound = "404"
    /// 204 No Content, cacheable.
    case noContent = "204"
    /// 200 with a transparent PNG of the requested size.
    case transparent
}

/// Where a layer's tiles come from (`source:`).
public enum SourceSettings: Sendable, Equatable {
    /// Files under `path` located by `template`.
    case directory(path: String, template: String)
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
    /// The answer for "no tile".
    public var emptyTile = EmptyTileAnswer.notFound
    /// Area covered, for TileJSON.
    public var bounds = WebMercator.worldBounds
    /// Box the `/static` camera target is clamped into.
    public var targetBounds: GeoBounds?
    /// Attribution text (TileJSON, the front page).
    public var attribution: String?
    /// A one-line description (TileJSON).
    public var description: String?

    /// A layer with defaults.
    public init(name: String, source: SourceSettings) {
        self.name = name
        self.source = source
    }
}
