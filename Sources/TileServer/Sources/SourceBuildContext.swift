import CoreMetrics
import Logging
import TileProviders

/// What a source is built with: the layer it is for, the layers built before it, the registry,
/// the logger and metrics, and the key path its errors name.
public struct SourceBuildContext: Sendable {
    /// The layer's name.
    public let layerName: String
    /// The layer's tile size (256 or 512).
    public let tileSize: Int
    /// The layer's JPEG or WebP quality (`quality`, 1…100); nil: the codec's default.
    public let quality: Int?
    /// How often the source checks its files on disk (`cache.revalidateSeconds`, or its default).
    public let revalidateSeconds: Double
    /// Layers already built (a composite's members are built first).
    public let layers: [String: Layer]
    /// The registry the configuration was read with.
    public let registry: SourceRegistry
    /// Logger for the provider.
    public let logger: Logger
    /// Where upstream providers count requests and failures.
    public let metrics: any MetricsFactory
    /// The layer's key path ("layers[2]") and the configuration file.
    let key: String
    let file: String

    /// An error at `<layer>.<subkey>` ("source", "source.layers").
    public func error(_ subkey: String, _ message: String) -> ConfigurationError {
        ConfigurationError(file: file, key: "\(key).\(subkey)", message: message)
    }
}
