import Logging

/// What a reload changed.
public struct ReloadSummary: Sendable, Equatable, CustomStringConvertible {
    /// Layers whose sources and cached tiles carried over.
    public var kept: [String]
    /// Layers built anew (their cached tiles were dropped).
    public var rebuilt: [String]
    /// Layers that are gone.
    public var removed: [String]
    /// Server settings that only take effect after a restart.
    public var needsRestart: [String]

    public var description: String {
        var parts = ["kept: \(kept.joined(separator: ", "))", "rebuilt: \(rebuilt.joined(separator: ", "))",
                     "removed: \(removed.joined(separator: ", "))"]
        if !needsRestart.isEmpty { parts.append("restart needed for: \(needsRestart.joined(separator: ", "))") }
        return parts.joined(separator: "; ")
    }
}

extension TileService {
    /// Re-reads the configuration from the service's source and swaps it in. The file is read
    /// in turn with other reloads, so the last reload to start swaps in the newest file.
    public func reload() throws(ConfigurationError) -> ReloadSummary {
        guard let configurationSource else {
            throw ConfigurationError(file: "", key: "", message: "this server has no configuration file to reload")
        }
        let outcome = reloads.sync { () -> Result<ReloadSummary, ConfigurationError> in
            Result { () throws(ConfigurationError) in try swapIn(try configurationSource(), registry: SourceRegistry()) }
        }
        return try outcome.get()
    }

    /// Builds the layers of `configuration` and swaps them in atomically. Requests in flight finish
    /// on the old state; unchanged layers keep their sources and cached tiles; a configuration
    /// that does not build throws and the old one stays. Reloads run one at a time (SIGHUP and
    /// `POST /admin/reload` may meet): each reads the state the previous one swapped in.
    /// A rebuilt layer has a new build, so its keys never meet the old layer's cached answers;
    /// after the swap its disk folder is cleared (a tier it took over from the old layer only
    /// stores the new layer's writes from the swap on), and the tiers of removed layers are released.
    public func reload(_ configuration: Configuration, registry: SourceRegistry = SourceRegistry()) throws(ConfigurationError) -> ReloadSummary {
        let outcome = reloads.sync { () -> Result<ReloadSummary, ConfigurationError> in
            Result { () throws(ConfigurationError) in try swapIn(configuration, registry: registry) }
        }
        return try outcome.get()
    }

    /// The body of `reload(_:registry:)`, on the reload queue.
    private func swapIn(_ configuration: Configuration, registry: SourceRegistry) throws(ConfigurationError) -> ReloadSummary {
        let old = state
        let layers = try LayerTable.build(from: configuration, registry: registry, logger: logger, metrics: metricsFactory,
                                          reusing: old.layers)
        let new = ServiceState(server: configuration.server, layers: layers)
        let summary = ReloadSummary(
            kept: layers.layers.filter { old.layers.keeps($0) }.map(\.name),
            rebuilt: layers.layers.filter { !old.layers.keeps($0) }.map(\.name),
            removed: old.layers.layers.filter { layers[$0.name] == nil }.map(\.name),
            needsRestart: Self.restartSettings(old.server, configuration.server))
        pipeline.metrics = PipelineMetrics(layers: layers.layers.map(\.name), factory: metricsFactory)
        core.current.withLock { $0 = new }
        for layer in layers.layers where !old.layers.keeps(layer) { layer.diskTier?.adopt(owner: layer.build) }
        pipeline.keepDiskTiers(of: layers.layers)
        for layer in old.layers.layers where !layers.keeps(layer) {
            if let successor = layers[layer.name], let tier = layer.diskTier, tier === successor.diskTier {
                _ = pipeline.clear(layer: successor)  // the folder, and what the new build read from it meanwhile
            } else {
                _ = pipeline.clear(layer: layer)
            }
        }
        // The files behind the layers kept are checked now, and their cached tiles against them
        // before they are served again: a reload is seen by the very next request.
        for layer in layers.layers where old.layers.keeps(layer) { layer.recheckSources() }
        logger.notice("configuration reloaded", metadata: ["summary": "\(summary)"])
        return summary
    }

    /// Settings the running HTTP server and cache were built with.
    private static func restartSettings(_ old: ServerSettings, _ new: ServerSettings) -> [String] {
        var names: [String] = []
        if old.host != new.host || old.port != new.port { names.append("server.host/port") }
        if old.maxConnections != new.maxConnections || old.requestLineBytes != new.requestLineBytes
            || old.headerBytes != new.headerBytes { names.append("server.limits") }
        if old.headerSeconds != new.headerSeconds || old.idleSeconds != new.idleSeconds { names.append("server.timeouts") }
        if old.cacheMemoryBytes != new.cacheMemoryBytes { names.append("server.cache.memoryBytes") }
        if old.redis != new.redis { names.append("server.cache.redis") }
        if old.logLevel != new.logLevel || old.accessLog != new.accessLog || old.logFormat != new.logFormat {
            names.append("server.log")
        }
        return names
    }
}
