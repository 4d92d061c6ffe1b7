import Foundation
import Yams

/// The whole configuration: server settings and the ordered list of layers.
/// Built once from YAML, then immutable.
public struct Configuration: Sendable, Equatable {
    /// The file it came from (for error messages and relative paths).
    public var file: String
    /// `server:`.
    public var server: ServerSettings
    /// `layers:`, in order (the order of `/index.json`).
    public var layers: [LayerSettings]

    /// A configuration from parts.
    public init(file: String, server: ServerSettings, layers: [LayerSettings]) {
        self.file = file
        self.server = server
        self.layers = layers
    }

    /// Reads and checks `path`. The environment's `TILELAYER_ADMIN_TOKEN` wins over the file's token.
    public static func load(
        file path: String, environment: [String: String] = ProcessInfo.processInfo.environment,
        registry: SourceRegistry = SourceRegistry()
    ) throws(ConfigurationError) -> Configuration {
        let text: String
        do {
            text = try String(contentsOfFile: path, encoding: .utf8)
        } catch {
            throw ConfigurationError(file: path, key: "", message: "cannot read the configuration file: \(error.localizedDescription)")
        }
        var configuration = try parse(yaml: text, file: path, registry: registry)
        if let token = environment["TILELAYER_ADMIN_TOKEN"], !token.isEmpty {
            configuration.server.adminToken = token
        }
        return configuration
    }

    /// Parses YAML text; relative paths are taken relative to `file`'s folder.
    public static func parse(
        yaml text: String, file: String, registry: SourceRegistry = SourceRegistry()
    ) throws(ConfigurationError) -> Configuration {
        let node: Node?
        do {
            node = try Yams.compose(yaml: text)
        } catch {
            throw ConfigurationError(file: file, key: "", message: "not valid YAML: \(error)")
        }
        guard let node else { throw ConfigurationError(file: file, key: "", message: "the file is empty") }
        let root = try ConfigNode(node: node, key: "", file: file).mapping(allowed: ["server", "layers"])
        let server = try root["server"].map(ServerSettings.init(node:)) ?? ServerSettings()
        let folder = (file as NSString).deletingLastPathComponent
        var layers: [LayerSettings] = []
        for item in try root["layers"]?.sequence() ?? [] {
            layers.append(try LayerSettings(node: item, baseFolder: folder, registry: registry))
        }
        try LayerSettings.checkNames(layers, file: file)
        try LayerSettings.checkReferences(layers, file: file)
        try RedisCacheSettings.checkLayers(layers, server: server, file: file)
        return Configuration(file: file, server: server, layers: layers)
    }
}
