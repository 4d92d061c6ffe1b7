import ArgumentParser
import AsyncHTTPClient
import Foundation
import Logging
import NIOCore
import NIOPosix
import Sockets
import TileGeometry
import TileServer

/// `tilelayer clear-cache`: asks running servers — every replica named with `--server` — to
/// drop a layer's cached tiles (`POST /admin/layers/{layer}/clear-cache`) and reports each
/// one's result; with --config and no server listening, deletes the layer's disk tier files itself.
struct ClearCacheCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "clear-cache",
        abstract: "Drop a layer's cached tiles (memory and disk) on a running server, or its disk cache directly.",
        discussion: """
            The token comes from --token, else TILELAYER_ADMIN_TOKEN, else server.adminToken of --config. Repeat \
            --server for every replica: each is asked, each result is printed, and the exit status is 1 when any \
            failed. When a server refuses the connection (not running) and --config is given, the layer's disk tier \
            (cache.disk) is cleared directly (once); a server started later then fetches those tiles again.
            """)

    @Option(help: "The layer.")
    var layer: String
    @Option(help: "A server's base URL; repeat for every replica (default: http://127.0.0.1:<server.port of --config, else 8080>).")
    var server: [String] = []
    @Option(help: "The admin token (default: TILELAYER_ADMIN_TOKEN, then the configuration's server.adminToken).")
    var token: String?
    @Option(help: "Only zoom levels A-B (or one zoom).")
    var zoom: String?
    @Option(parsing: .unconditional, help: "Only tiles meeting west,south,east,north.")
    var bbox: String?
    @Option(name: .shortAndLong, help: "Configuration file: the port, the token, and the disk tier when no server runs.")
    var config: String?

    /// Seconds to wait for the server.
    static let timeoutSeconds: Int64 = 30

    func run() throws {
        let configuration = try config.map(ConfigurationOptions.load)
        let logger = ConfigurationOptions.bootstrapLogging(level: configuration?.server.logLevel ?? "warning")
        let message = try AsyncBridge.run { [self] in
            try await execute(configuration: configuration, environment: ProcessInfo.processInfo.environment, logger: logger)
        }
        print(message)
    }

    /// Clears on every server named, and says what happened on each; throws `ClearCacheFailure`
    /// listing every result when any server failed.
    func execute(configuration: Configuration?, environment: [String: String], logger: Logger) async throws -> String {
        let bases = server.isEmpty ? ["http://127.0.0.1:\(configuration?.server.port ?? 8080)"] : server
        var lines: [String] = []
        var failed = false
        var diskCleared = false
        for base in bases {
            do {
                // The disk tier is cleared directly at most once, however many servers are down.
                let (line, clearedDisk) = try await execute(base: base, configuration: diskCleared ? nil : configuration,
                                                            environment: environment, logger: logger)
                diskCleared = diskCleared || clearedDisk
                lines.append(line)
            } catch {
                failed = true
                lines.append("\(base): failed: \(error)")
            }
        }
        let report = lines.joined(separator: "\n")
        if failed { throw ClearCacheFailure(report) }
        return report
    }

    /// Clears on the server at `base`; with `configuration` and nothing listening there, the disk
    /// tier (`clearedDisk`).
    private func execute(
        base: String, configuration: Configuration?, environment: [String: String], logger: Logger
    ) async throws -> (line: String, clearedDisk: Bool) {
        let zooms = try zoom.map(TileArgumentParsing.zoomRange)
        let box = try bbox.map(TileArgumentParsing.bbox)
        var query: [String] = []
        if let zoom { query.append("zoom=\(zoom)") }
        if let bbox { query.append("bbox=\(bbox)") }
        let url = (base.hasSuffix("/") ? String(base.dropLast()) : base) + "/admin/layers/\(layer)/clear-cache"
            + (query.isEmpty ? "" : "?" + query.joined(separator: "&"))
        let secret = token ?? environment["TILELAYER_ADMIN_TOKEN"] ?? configuration?.server.adminToken
        do {
            // AsyncHTTPClient retries a refused connection until its deadline: find out at once
            // whether anything listens.
            if await Self.refusesConnections(base) { throw SocketError.systemCall(name: "connect", errno: ECONNREFUSED) }
            return (try await post(url, token: secret), false)
        } catch let error where !(error is ClearCacheFailure) && Self.isConnectionRefused(error) {
            guard let configuration else {
                throw ClearCacheFailure("no server answers at \(base) (\(error)); pass --config to clear the layer's disk cache directly")
            }
            return (try await clearDisk(configuration: configuration, zooms: zooms, box: box, logger: logger,
                                        reason: "\(base) refused the connection"), true)
        }
    }

    private func post(_ url: String, token: String?) async throws -> String {
        var request = HTTPClientRequest(url: url)
        request.method = .POST
        if let token { request.headers.add(name: "Authorization", value: "Bearer \(token)") }
        let client = HTTPClient(eventLoopGroupProvider: .singleton)
        do {
            let response = try await client.execute(request, timeout: .seconds(Self.timeoutSeconds))
            let body = String(buffer: try await response.body.collect(upTo: 64 << 10))
            try await client.shutdown()
            switch response.status.code {
            case 200 ..< 300: return "cleared the cached tiles of layer \"\(layer)\" on \(url)" + (body.isEmpty ? "" : ": \(body)")
            case 401: throw ClearCacheFailure("\(url): 401, wrong or missing admin token (--token or TILELAYER_ADMIN_TOKEN)")
            default: throw ClearCacheFailure("\(url): \(response.status.code) \(body.trimmingCharacters(in: .whitespacesAndNewlines))")
            }
        } catch {
            try? await client.shutdown()
            throw error
        }
    }

    /// Deletes the layer's disk-tier files (those matching --zoom and --bbox) in this process.
    private func clearDisk(
        configuration: Configuration, zooms: ClosedRange<Int>?, box: GeoBounds?, logger: Logger, reason: String
    ) async throws -> String {
        // Only this layer's settings: no source is opened, so a broken layer blocks no clear.
        guard let found = configuration.layers.first(where: { $0.name == layer }) else {
            throw ClearCacheFailure("no layer \"\(layer)\" in \(configuration.file)")
        }
        let matches = zooms == nil && box == nil ? nil : Self.selection(zooms: zooms, box: box)
        let cleared = await withCheckedContinuation { continuation in
            DispatchQueue.global().async { continuation.resume(returning: TileService.clearDiskCache(of: found, where: matches)) }
        }
        guard let cleared, let folder = found.cache.disk else {
            throw ClearCacheFailure("\(reason), and layer \"\(layer)\" has no cache.disk to clear")
        }
        switch cleared {
        case .success(let removed):
            return "\(reason); cleared the disk cache of layer \"\(layer)\" directly (\(folder)): "
                + (removed.map { "\($0) files removed" } ?? "all files removed")
        case .failure(let error):
            throw ClearCacheFailure("\(reason); clearing the disk cache of layer \"\(layer)\" failed: \(error)")
        }
    }
}

extension ClearCacheCommand {
    /// Whether `error` says nothing listens at the address (ECONNREFUSED, however wrapped).
    static func isConnectionRefused(_ error: any Error) -> Bool {
        if case SocketError.systemCall(_, ECONNREFUSED)? = error as? SocketError { return true }
        if let io = error as? IOError { return io.errnoCode == ECONNREFUSED }
        if let connection = error as? NIOConnectionError {
            return !connection.connectionErrors.isEmpty && connection.connectionErrors.allSatisfy { isConnectionRefused($0.error) }
        }
        return false
    }

    /// Whether a TCP connection to the server of `base` (`http(s)://host[:port]`) is refused;
    /// the blocking connect runs on a Dispatch thread.
    static func refusesConnections(_ base: String) async -> Bool {
        guard let url = URL(string: base), let host = url.host else { return false }
        let port = url.port ?? (url.scheme == "https" ? 443 : 80)
        return await withCheckedContinuation { continuation in
            DispatchQueue.global().async {
                do {
                    try Socket.connect(host: host, port: port).close()
                    continuation.resume(returning: false)
                } catch {
                    continuation.resume(returning: isConnectionRefused(error))
                }
            }
        }
    }

    /// The keys of tiles in `zooms` (all when nil) that meet `box` (all when nil).
    static func selection(zooms: ClosedRange<Int>?, box: GeoBounds?) -> @Sendable (TileKey) -> Bool {
        { key in
            if let zooms, !zooms.contains(key.tile.z) { return false }
            guard let box else { return true }
            return SeedPlan.ranges(box, zoom: key.tile.z).contains { $0.xs.contains(key.tile.x) && $0.ys.contains(key.tile.y) }
        }
    }
}

/// Why `clear-cache` did not clear.
struct ClearCacheFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
