import TileImagery

extension ObjectStoreSettings {
    /// Reads `server.s3: {endpoint: http://127.0.0.1:9000, region: us-east-1, pathStyle: true}`.
    init(node: ConfigNode) throws(ConfigurationError) {
        let keys = try node.mapping(allowed: ["endpoint", "region", "pathStyle"])
        self.init()
        if let value = keys["endpoint"] {
            let url = try value.string()
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw value.error("an endpoint is a URL: http://host:port or https://host")
            }
            endpoint = url
        }
        if let value = keys["region"] { region = try value.string() }
        if let value = keys["pathStyle"] { pathStyle = try value.bool() }
    }
}
