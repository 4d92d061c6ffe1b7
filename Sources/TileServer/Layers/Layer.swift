import TileGeometry
import TileProviders

/// A configured layer, ready to serve: its settings with the zoom range resolved, and its provider.
public struct Layer: Sendable {
    /// The settings (minZoom and maxZoom are set).
    public let settings: LayerSettings
    /// Where its tiles come from.
    public let provider: any SyncTileProvider

    /// The layer's name.
    public var name: String { settings.name }
    /// Lowest zoom served.
    public var minZoom: Int { settings.minZoom ?? 0 }
    /// Highest zoom served.
    public var maxZoom: Int { settings.maxZoom ?? Layer.defaultMaxZoom }

    /// Highest zoom when neither the configuration nor the source says.
    public static let defaultMaxZoom = 22

    /// A layer.
    public init(settings: LayerSettings, provider: any SyncTileProvider) {
        self.settings = settings
        self.provider = provider
    }

    /// The tile for a requested coordinate: x wrapped, nil when z or y is outside the layer.
    public func tileCoordinate(z: Int, x: Int, y: Int) -> TileCoordinate? {
        guard z >= minZoom, z <= maxZoom else { return nil }
        return TileCoordinate(z: z, x: x, y: y).normalized()
    }
}
