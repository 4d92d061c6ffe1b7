// Hiredis: a small blocking Redis client over the hiredis C library (RESP over TCP). Every call
// may wait on the network for up to its timeout: run it on a Dispatch worker, never an event loop.

/// Where a Redis server is: `redis://[:password@]host[:port][/db]` (port 6379, db 0 by default).
public struct RedisEndpoint: Sendable, Equatable, CustomStringConvertible {
    /// Host name or address.
    public var host: String
    /// TCP port.
    public var port: Int
    /// Database number (`SELECT`ed on connect when not 0).
    public var database: Int
    /// Password (`AUTH`), if any.
    public var password: String?

    /// The default Redis port.
    public static let defaultPort = 6379

    /// An endpoint.
    public init(host: String, port: Int = defaultPort, database: Int = 0, password: String? = nil) {
        self.host = host
        self.port = port
        self.database = database
        self.password = password
    }

    /// The endpoint of a `redis://` URL, or what is wrong with it.
    public init(url: String) throws(RedisURLError) {
        let scheme = "redis://"
        guard url.hasPrefix(scheme) else { throw RedisURLError("\"\(url)\" does not start with redis://") }
        var rest = Substring(url.dropFirst(scheme.count))
        var password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            let secret = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).last ?? ""
            password = secret.isEmpty ? nil : String(secret)
            rest = rest[rest.index(after: at)...]
        }
        var database = 0
        if let slash = rest.firstIndex(of: "/") {
            let path = rest[rest.index(after: slash)...]
            if !path.isEmpty {
                guard let number = Int(path), number >= 0, number <= 1 << 16 else {
                    throw RedisURLError("database \"\(path)\" in \"\(url)\" is not a number (redis://host:6379/0)")
                }
                database = number
            }
            rest = rest[..<slash]
        }
        var host = rest
        var port = Self.defaultPort
        if let colon = rest.lastIndex(of: ":"), !rest.hasSuffix("]") {
            let text = rest[rest.index(after: colon)...]
            guard let number = Int(text), (1 ... 65535).contains(number) else {
                throw RedisURLError("port \"\(text)\" in \"\(url)\" is not a port number (1…65535)")
            }
            port = number
            host = rest[..<colon]
        }
        if host.hasPrefix("["), host.hasSuffix("]") { host = host.dropFirst().dropLast() }
        guard !host.isEmpty, !host.contains(where: { $0 == " " || $0 == "/" || $0 == "?" || $0 == "#" }) else {
            throw RedisURLError("\"\(url)\" names no host (redis://host:6379/0)")
        }
        self.init(host: String(host), port: port, database: database, password: password)
    }

    public var description: String { "redis://\(host):\(port)/\(database)" }
}

/// A `redis://` URL that cannot be used, and why.
public struct RedisURLError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong.
    public let message: String
    init(_ message: String) { self.message = message }
    public var description: String { message }
}
