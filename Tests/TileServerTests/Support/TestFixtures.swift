import Foundation
import Logging
import TileHTTP
@testable import TileServer

/// A temporary folder removed when the value is released.
final class TemporaryFolder {
    let path: String

    init() {
        path = NSTemporaryDirectory() + "tilelayer-test-" + UUID().uuidString
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: path) }

    func write(_ relative: String, _ bytes: [UInt8]) {
        let full = path + "/" + relative
        try! FileManager.default.createDirectory(atPath: (full as NSString).deletingLastPathComponent,
                                                 withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: full, contents: Data(bytes))
    }
}

enum Fixtures {
    /// The package root (tests locate shipped files from here).
    static let packageRoot = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path

    /// The shipped world pyramid.
    static let worldFolder = packageRoot + "/tiles/world"

    static func worldTile(_ z: Int, _ x: Int, _ y: Int) -> [UInt8] {
        Array(FileManager.default.contents(atPath: "\(worldFolder)/\(z)/\(x)/\(y).png")!)
    }

    /// A silent logger (tests never bootstrap the logging system).
    static let logger: Logger = {
        var logger = Logger(label: "test")
        logger.logLevel = .critical
        return logger
    }()

    /// A configuration parsed from YAML written into `folder`.
    static func configuration(_ yaml: String, in folder: TemporaryFolder) throws -> Configuration {
        try Configuration.parse(yaml: yaml, file: folder.path + "/tilelayer.yml")
    }

    /// A service on `yaml` whose sources include `registry`'s (test providers).
    static func service(yaml: String, registry: SourceRegistry, folder: TemporaryFolder,
                        logger: Logger = Fixtures.logger) throws -> TileService {
        let configuration = try Configuration.parse(yaml: yaml, file: folder.path + "/t.yml", registry: registry)
        return TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: logger), logger: logger)
    }

    /// A service over the shipped world layer plus a folder of odd files.
    static func service(extraYAML: String = "", server: String = "", folder: TemporaryFolder) throws -> TileService {
        let yaml = """
        server: {port: 8080\(server)}
        layers:
          - name: world
            default: true
            source: {type: directory, path: \(worldFolder)}
            attribution: "Tom Patterson"
        \(extraYAML)
        """
        let configuration = try configuration(yaml, in: folder)
        return TileService(state: try ServiceState(configuration: configuration, logger: logger), logger: logger)
    }
}

extension TileService {
    /// `handle` for a GET (or another method) of `target` with extra headers.
    func get(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders = HTTPHeaders()) async throws -> HTTPResponse {
        await response(to: try Self.request(target, method: method, headers: headers))
    }

    /// A request for `target` with `headers`, and a Host when they have none.
    private static func request(_ target: String, method: HTTPMethod = .get, headers: HTTPHeaders) throws -> HTTPRequest {
        var all = headers
        if all[.host] == nil { all.add(.host, "localhost:8080") }
        return try HTTPRequest(method: method, target: target, headers: all)
    }

    /// The answer to a GET as the connection gets it (at once from the loop, or later from the
    /// workers): a body sent from a file stays a file.
    func answerAsSent(_ target: String, headers: HTTPHeaders = [:]) async throws -> HTTPResponse {
        let request = try Self.request(target, headers: headers)
        return await withCheckedContinuation { continuation in
            if let now = respond(to: request, completion: { continuation.resume(returning: $0) }) {
                continuation.resume(returning: now)
            }
        }
    }

    /// The answer when the event loop gives it without waiting; nil when it went to the workers
    /// (or joined a fill), whose answer is dropped.
    func answerOnLoop(_ target: String, headers: HTTPHeaders = [:]) throws -> HTTPResponse? {
        respond(to: try Self.request(target, headers: headers), completion: { _ in })
    }
}

extension HTTPResponse {
    /// The body bytes as the connection sends them: from the body's file (a tile file, or the
    /// memory cache's body arena) when it has one, else `body`.
    var sentBody: [UInt8] { file?.read() ?? body }
}

/// A real server of ours on a loopback port, stopped by `stop()`.
struct LiveServer {
    let server: HTTPServer
    let port: Int

    init(responder: any HTTPResponder, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: false)
        configure(&configuration)
        server = HTTPServer(configuration: configuration, responder: responder, logger: Fixtures.logger)
        port = try server.start()
    }

    func stop() async {
        await withCheckedContinuation { continuation in
            server.shutdown(gracePeriod: 2) { continuation.resume() }
        }
    }
}
