import CoreMetrics
import Logging

/// What the service serves: settings and layers, frozen; a reload builds a new one. A class, so
/// a request takes it with one retain instead of copying every setting.
public final class ServiceState: Sendable {
    /// The `server:` settings.
    public let server: ServerSettings
    /// The layers.
    public let layers: LayerTable
    /// `server.cors`, ready to answer.
    let cors: CORSPolicy

    /// A state.
    public init(server: ServerSettings, layers: LayerTable) {
        self.server = server
        self.layers = layers
        self.cors = CORSPolicy(server)
    }

    /// Builds the layers of `configuration`; upstream sources count into `metrics`.
    public convenience init(
        configuration: Configuration, registry: SourceRegistry = SourceRegistry(), logger: Logger,
        metrics: any MetricsFactory = MetricsSystem.factory
    ) throws(ConfigurationError) {
        self.init(server: configuration.server,
                  layers: try LayerTable.build(from: configuration, registry: registry, logger: logger, metrics: metrics))
    }
}
