import Foundation
import Hashing
import Prometheus
import Synchronization
import TestHTTPClient
import Testing
import TileHTTP
import TilePNG
@testable import TileProviders
@testable import TileServer
import TestThreads

/// clearTileCache over HTTP, and configuration reload.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct AdminTests {
    let folder = TemporaryFolder()
    /// Bumped to change what the provider draws (a re-made tile).
    let version = Version()

    /// A shared version number (a class so the test struct stays copyable).
    final class Version: Sendable {
        private let value = Atomic<Int>(1)
        func load() -> Int { value.load(ordering: .relaxed) }
        func store(_ new: Int) { value.store(new, ordering: .relaxed) }
    }

    func versionedProvider(delay: Double = 0) -> CountingProvider {
        let version = self.version
        return CountingProvider(delay: delay) { x, y, zoom in
            let v = version.load()
            let color = RGBAColor(red: UInt8(x % 256), green: UInt8(y % 256), blue: UInt8(v))
            return .tile(Tile(data: try! PNGEncoder().encode(RGBAImage(width: 256, height: 256, fill: color)), lastModified: nil))
        }
    }

    func makeService(_ provider: CountingProvider, token: String? = "s3cret", extra: String = "") throws -> (TileService, SourceRegistry) {
        var registry = SourceRegistry()
        registry.register("versioned") { _, _ in .sync(provider) }
        let yaml = """
        server: {port: 8080\(token.map { ", adminToken: \($0)" } ?? "")}
        layers:
          - {name: test, source: {type: versioned}, maxZoom: 6}
          - {name: world, source: {type: directory, path: \(Fixtures.worldFolder)}}
        \(extra)
        """
        let file = folder.path + "/t.yml"
        folder.write("t.yml", Array(yaml.utf8))
        let configuration = try Configuration.parse(yaml: yaml, file: file, registry: registry)
        let frozen = registry
        let source: ConfigurationSource = { () throws(ConfigurationError) in
            try Configuration.load(file: file, environment: [:], registry: frozen)
        }
        let service = TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: Fixtures.logger),
                                  logger: Fixtures.logger, configurationSource: source)
        return (service, registry)
    }

    static func blue(_ response: HTTPResponse) throws -> UInt8? {
        try #require(response.status == .ok, "\(String(decoding: response.body.prefix(300), as: UTF8.self))")
        return try PNGDecoder.decode(response.body).pixel(x: 0, y: 0)?.blue
    }

    func blue(_ response: HTTPResponse) throws -> UInt8? { try Self.blue(response) }

    func post(_ service: TileService, _ path: String, token: String? = "s3cret") async throws -> HTTPResponse {
        try await Self.post(service, path, token: token)
    }

    static func post(_ service: TileService, _ path: String, token: String? = "s3cret") async throws -> HTTPResponse {
        var headers = HTTPHeaders()
        if let token { headers.add(.authorization, "Bearer \(token)") }
        return try await service.get(path, method: .post, headers: headers)
    }

    @Test func adminIsOffWithoutAToken() async throws {
        let (service, _) = try makeService(versionedProvider(), token: nil)
        #expect(try await post(service, "/admin/layers/test/clear-cache", token: "x").status == .notFound)
        #expect(try await post(service, "/admin/reload", token: "x").status == .notFound)
    }

    @Test func missingOrWrongTokenIs401() async throws {
        let (service, _) = try makeService(versionedProvider())
        for token in [nil, "wrong", "s3cre", "s3cret2", ""] {
            let response = try await post(service, "/admin/layers/test/clear-cache", token: token)
            #expect(response.status == .unauthorized, "\(String(describing: token))")
            #expect(response.headers[HTTPHeaderName("WWW-Authenticate")] != nil)
        }
        let basic = try await service.get("/admin/reload", method: .post, headers: [.authorization: "Basic czNjcmV0"])
        #expect(basic.status == .unauthorized)
        #expect(AdminAuthorization.constantTimeEquals(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AdminAuthorization.constantTimeEquals(Array("abc".utf8), Array("abd".utf8)))
        #expect(!AdminAuthorization.constantTimeEquals(Array("abc".utf8), Array("abcd".utf8)))
    }

    @Test func adminRoutesArePostOnly() async throws {
        let (service, _) = try makeService(versionedProvider())
        let response = try await service.get("/admin/reload")
        #expect(response.status == .methodNotAllowed)
        #expect(response.headers[.allow] == "POST")
    }

    @Test func clearCacheDropsTheLayersTilesSoTheyAreFetchedAgain() async throws {
        let provider = versionedProvider()
        let (service, _) = try makeService(provider)
        #expect(try blue(try await service.get("/test/2/1/1.png")) == 1)
        version.store(2)
        #expect(try blue(try await service.get("/test/2/1/1.png")) == 1)  // still cached
        #expect(try await post(service, "/admin/layers/test/clear-cache").status == .noContent)
        #expect(try blue(try await service.get("/test/2/1/1.png")) == 2)
        #expect(provider.callCount == 2)
        #expect(try await post(service, "/admin/layers/nope/clear-cache").status == .notFound)
        #expect(try await post(service, "/admin/layers/test/clear-cache?zoom=9-2").status == .badRequest)
        #expect(try await post(service, "/admin/layers/test/clear-cache?bbox=1,2,3").status == .badRequest)
        #expect(try await post(service, "/admin/layers/test/clear-cache?color=red").status == .badRequest)
    }

    @Test func partialClearByZoomAndBox() async throws {
        let provider = versionedProvider()
        let (service, _) = try makeService(provider)
        let paths = ["/test/1/0/0.png", "/test/3/0/0.png", "/test/3/7/7.png", "/test/5/0/0.png"]
        for path in paths { _ = try await service.get(path) }
        version.store(2)
        // Zoom 3 to 4, north-west quarter of the world only.
        #expect(try await post(service, "/admin/layers/test/clear-cache?zoom=3-4&bbox=-180,0,0,85").status == .noContent)
        let blues = try await paths.asyncMap { try blue(try await service.get($0)) }
        #expect(blues == [1, 2, 1, 1])
        #expect(try await post(service, "/admin/layers/test/clear-cache?zoom=5").status == .noContent)
        #expect(try blue(try await service.get("/test/5/0/0.png")) == 2)
    }

    @Test func clearDuringLoadNeverServesAnOldTileAfterItReturns() async throws {
        let provider = versionedProvider(delay: 0.01)
        let (service, _) = try makeService(provider)
        let paths = (0 ..< 8).map { "/test/3/\($0)/\($0).png" }
        let version = self.version
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask {
                for round in 0 ..< 20 {
                    for path in paths {
                        let response = try await service.get(path)
                        // Whatever the timing, a body always matches its ETag and its own tile.
                        #expect(response.headers[.eTag] == ContentHash.etag(of: response.body))
                        let pixel = try PNGDecoder.decode(response.body).pixel(x: 0, y: 0)
                        #expect(pixel?.red == pixel?.green, "round \(round) \(path)")
                    }
                }
            }
            group.addTask {
                for step in 2 ... 6 {
                    try await Task.sleep(for: .milliseconds(15))
                    version.store(step)
                    #expect(try await Self.post(service, "/admin/layers/test/clear-cache").status == .noContent)
                    for path in paths {
                        #expect(try Self.blue(try await service.get(path)).map(Int.init) ?? 0 >= step, "old tile after clear \(step)")
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func reloadAddsLayersKeepsUnchangedCachesAndRefusesBadConfiguration() async throws {
        let provider = versionedProvider()
        let (service, _) = try makeService(provider)
        _ = try await service.get("/test/1/1/1.png")
        #expect(try await service.get("/extra/0/0/0.png").status == .notFound)
        let file = folder.path + "/t.yml"
        var yaml = try String(contentsOfFile: file, encoding: .utf8)
        yaml += "  - {name: extra, source: {type: directory, path: \(Fixtures.worldFolder)}}\n"
        folder.write("t.yml", Array(yaml.utf8))
        let reloaded = try await post(service, "/admin/reload")
        #expect(reloaded.status == .ok)
        #expect(try await service.get("/extra/0/0/0.png").status == .ok)
        _ = try await service.get("/test/1/1/1.png")
        #expect(provider.callCount == 1)  // the unchanged layer's tile is still cached

        folder.write("t.yml", Array((yaml + "  - {name: broken, source: {type: nosuch}}\n").utf8))
        let refused = try await post(service, "/admin/reload")
        #expect(refused.status.code == 422)
        #expect(refused.text.contains("unknown source type"))
        #expect(try await service.get("/extra/0/0/0.png").status == .ok)  // the old configuration stays
    }

    @Test func changedLayerIsRebuiltAndItsCacheDropped() async throws {
        let provider = versionedProvider()
        let (service, _) = try makeService(provider)
        _ = try await service.get("/test/1/1/1.png")
        let summary = try service.reload(try Configuration.parse(yaml: """
        server: {adminToken: s3cret}
        layers:
          - {name: test, source: {type: directory, path: \(Fixtures.worldFolder)}, maxZoom: 3}
          - {name: world, source: {type: directory, path: \(Fixtures.worldFolder)}}
        """, file: folder.path + "/t.yml"))
        #expect(summary.rebuilt == ["test"])
        #expect(summary.kept == ["world"])
        #expect(try await service.get("/test/1/1/1.png").body == Fixtures.worldTile(1, 1, 1))
    }
}

extension AdminTests {
    /// Over a live connection, a cached tile's repeated requests are each a memory hit; a
    /// clear-cache is seen by the very next request, and so is a reload (it changed the CORS
    /// header every answer carries).
    @Test func hitsCountAndAClearOrAReloadIsSeenByTheNextRequest() async throws {
        let (service, _) = try makeService(versionedProvider())
        let live = try LiveServer(responder: service)
        let client = try RawHTTPClient(port: live.port)
        func blue() throws -> UInt8? {
            let response = try #require(client.request("/test/2/1/1.png"))
            return try PNGDecoder.decode(response.body).pixel(x: 0, y: 0)?.blue
        }
        for _ in 0 ..< 5 { #expect(try blue() == 1) }
        let page = try PrometheusExposition(try await service.get("/metrics").text)
        #expect(page.value("tilelayer_cache_hits_total", ["layer": "test"]) == 4, "four hits after the miss")
        version.store(2)
        #expect(try blue() == 1, "still cached")
        #expect(try await post(service, "/admin/layers/test/clear-cache").status == .noContent)
        #expect(try blue() == 2, "the next request after the clear")
        #expect(try blue() == 2)

        #expect(client.request("/test/2/1/1.png")?.header("Access-Control-Allow-Origin") == "*")
        folder.write("t.yml", Array("""
            server: {port: 8080, adminToken: s3cret, cors: "https://maps.example"}
            layers:
              - {name: test, source: {type: versioned}, maxZoom: 6}
              - {name: world, source: {type: directory, path: \(Fixtures.worldFolder)}}
            """.utf8))
        #expect(try await post(service, "/admin/reload").status == .ok)
        #expect(client.request("/test/2/1/1.png")?.header("Access-Control-Allow-Origin") == "https://maps.example",
                "the next request after the reload")
        await live.stop()
    }

    @Test func reloadUnderLoadDropsNoConnection() async throws {
        let (service, _) = try makeService(versionedProvider())
        let live = try LiveServer(responder: service)
        let port = live.port
        // The blocking clients run on threads of their own (`.ownThreads`: each child task's
        // too): on the shared pool they held the threads the reloads they wait for run on.
        let (tiles, reloads) = try await withThrowingTaskGroup(of: (tiles: Int, reloads: Int).self) { group in
            for client in 0 ..< 4 {
                group.addTask {
                    let connection = try RawHTTPClient(port: port)
                    let answered = (0 ..< 100).filter { index in
                        connection.request("/world/2/\((index + client) % 4)/1.png")?.status == 200
                    }
                    return (answered.count, 0)
                }
            }
            group.addTask {
                let admin = try RawHTTPClient(port: port)
                let done = (0 ..< 5).filter { _ in
                    admin.request("/admin/reload", method: "POST", headers: ["Authorization: Bearer s3cret", "Content-Length: 0"])?.status == 200
                }
                return (0, done.count)
            }
            return try await group.reduce((0, 0)) { ($0.0 + $1.tiles, $0.1 + $1.reloads) }
        }
        #expect(tiles == 400, "every tile request answered 200")
        #expect(reloads == 5, "every reload answered 200")
        await live.stop()
    }
}

extension HTTPResponse {
    var text: String { String(decoding: body, as: UTF8.self) }
}

extension Sequence {
    func asyncMap<T>(_ transform: (Element) async throws -> T) async rethrows -> [T] {
        var results: [T] = []
        for element in self { results.append(try await transform(element)) }
        return results
    }
}
