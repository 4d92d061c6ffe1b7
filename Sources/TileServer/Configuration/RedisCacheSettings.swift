import Hiredis

/// `server.cache.redis`: the shared tile tier every replica reads and fills
/// (`{url: redis://host:6379/0, ttlSeconds: 86400, timeoutMs: 250}`). Layers opt in with
/// `cache: {redis: true}`.
public struct RedisCacheSettings: Sendable, Equatable {
    /// The URL as configured.
    public var url: String
    /// Host, port, database and password from `url`.
    public var endpoint: RedisEndpoint
    /// Seconds a tile stays in Redis (`SET … EX`).
    public var ttlSeconds = 86400
    /// Connect and per-command timeout: past it a lookup is a miss and the request goes on
    /// from the replica's own tiers.
    public var timeoutMilliseconds = 250
    /// Connections each replica keeps open to Redis.
    public var connections = 8

    /// Settings for the Redis at `url`.
    public init(url: String) throws(RedisURLError) {
        self.url = url
        self.endpoint = try RedisEndpoint(url: url)
    }

    init(node: ConfigNode) throws(ConfigurationError) {
        let keys = try node.mapping(allowed: ["url", "ttlSeconds", "timeoutMs", "connections"])
        guard let urlNode = keys["url"] else { throw node.error("needs a url (redis://host:6379/0)") }
        let text = try urlNode.string()
        do {
            try self.init(url: text)
        } catch {
            throw urlNode.error(error.message)
        }
        if let value = keys["ttlSeconds"] { ttlSeconds = try value.int(in: 1 ... 31_536_000) }
        if let value = keys["timeoutMs"] { timeoutMilliseconds = try value.int(in: 1 ... 60_000) }
        if let value = keys["connections"] { connections = try value.int(in: 1 ... 256) }
    }

    /// A layer asks for the Redis tier only when the server has one.
    static func checkLayers(_ layers: [LayerSettings], server: ServerSettings, file: String) throws(ConfigurationError) {
        guard server.redis == nil, let index = layers.firstIndex(where: { $0.cache.redis == true }) else { return }
        throw ConfigurationError(
            file: file, key: "layers[\(index)].cache.redis",
            message: "layer \"\(layers[index].name)\" asks for the Redis tier but server.cache.redis is not set "
                + "(add server: {cache: {redis: {url: redis://host:6379/0}}})")
    }
}
