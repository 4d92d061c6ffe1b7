import TileImagery
import Sockets

extension ServerSettings {
    init(node: ConfigNode) throws(ConfigurationError) {
        self.init()
        let keys = try node.mapping(allowed: [
            "host", "port", "publicURL", "allowedHosts", "cors", "adminToken", "cache", "limits", "timeouts", "log",
            "transport", "workers", "s3",
        ])
        if let value = keys["host"] { host = try value.string() }
        if let value = keys["port"] { port = try value.int(in: 0 ... 65535) }
        if let value = keys["publicURL"] {
            let url = try value.string()
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw value.error("must start with http:// or https:// (for example https://tiles.example.org)")
            }
            publicURL = url.hasSuffix("/") ? String(url.dropLast()) : url
        }
        if let value = keys["allowedHosts"] { allowedHosts = try value.strings().map { $0.lowercased() } }
        if let value = keys["cors"] {
            if case .sequence = value.node {
                corsOrigins = try value.strings()
                guard !corsOrigins.isEmpty, !corsOrigins.contains("*") else {
                    throw value.error("a list of origins (https://app.example.org) must name at least one, and not \"*\"")
                }
                cors = ""
            } else {
                cors = try value.string()
            }
        }
        if let value = keys["adminToken"] {
            let token = try value.string()
            adminToken = token.isEmpty ? nil : token
        }
        if let s3 = keys["s3"] { objectStore = try ObjectStoreSettings(node: s3) }
        if let cache = try keys["cache"]?.mapping(allowed: ["memoryBytes", "redis", "gdalBytes"]) {
            if let value = cache["gdalBytes"] { gdalCacheBytes = try value.int(in: 1 << 20 ... Int.max) }
            if let value = cache["memoryBytes"] { cacheMemoryBytes = try value.int(in: 0 ... Int.max) }
            if let value = cache["redis"] { redis = try RedisCacheSettings(node: value) }
        }
        if let limits = try keys["limits"]?.mapping(allowed: [
            "maxConnections", "requestLineBytes", "headerBytes", "headerFields", "bodyBytes",
        ]) {
            if let value = limits["maxConnections"] { maxConnections = try value.int(in: 1 ... 1_000_000) }
            if let value = limits["requestLineBytes"] { requestLineBytes = try value.int(in: 256 ... 1 << 20) }
            if let value = limits["headerBytes"] { headerBytes = try value.int(in: 1024 ... 1 << 24) }
            if let value = limits["headerFields"] { headerFields = try value.int(in: 8 ... 10_000) }
            if let value = limits["bodyBytes"] { bodyBytes = try value.int(in: 0 ... 1 << 24) }
        }
        if let timeouts = try keys["timeouts"]?.mapping(allowed: ["headerSeconds", "idleSeconds", "answerSeconds"]) {
            if let value = timeouts["headerSeconds"] { headerSeconds = try value.double(in: 0.1 ... 3600) }
            if let value = timeouts["idleSeconds"] { idleSeconds = try value.double(in: 0.1 ... 86400) }
            if let value = timeouts["answerSeconds"] { answerSeconds = try value.double(in: 0.1 ... 3600) }
        }
        if let value = keys["transport"] {
            let name = try value.string()
            guard let chosen = IOTransport(rawValue: name), IOTransport.available.contains(chosen) else {
                let known = IOTransport.available.map(\.rawValue).joined(separator: ", ")
                throw value.error("unknown or unavailable transport \"\(name)\" (here: one of \(known))")
            }
            transport = chosen
        }
        if let workers = try keys["workers"]?.mapping(allowed: ["threads", "queue", "maxWaitSeconds"]) {
            if let value = workers["threads"] { workerThreads = try value.int(in: 1 ... 1024) }
            if let value = workers["queue"] { workerQueue = try value.int(in: 0 ... 1 << 20) }
            if let value = workers["maxWaitSeconds"] { workerMaxWait = try value.double(in: 0 ... 3600) }
        }
        if let log = try keys["log"]?.mapping(allowed: ["level", "format", "access", "accessBufferBytes", "accessFlushSeconds"]) {
            if let value = log["level"] {
                let level = try value.string()
                let levels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
                guard levels.contains(level) else { throw value.error("unknown level \"\(level)\" (one of \(levels.joined(separator: ", ")))") }
                logLevel = level
            }
            if let value = log["format"] {
                let name = try value.string()
                guard let format = LogFormat(rawValue: name) else {
                    let known = LogFormat.allCases.map(\.rawValue).joined(separator: ", ")
                    throw value.error("unknown format \"\(name)\" (one of \(known))")
                }
                logFormat = format
            }
            if let value = log["access"] { accessLog = try value.bool() }
            if let value = log["accessBufferBytes"] { accessBufferBytes = try value.int(in: 0 ... 1 << 24) }
            if let value = log["accessFlushSeconds"] { accessFlushSeconds = try value.double(in: 0.01 ... 3600) }
        }
    }
}
