import Foundation
import Testing
import TileGeometry
import TileHTTP
import TilePNG
@testable import TileProviders
@testable import TileServer

/// Errors become answers in one place: every error answer has a status chosen once, a text
/// body, `Cache-Control` and CORS; x wraps however negative.
@Suite(.timeLimit(.minutes(1))) struct ErrorAnswerTests {
    let folder = TemporaryFolder()

    /// A source whose files cannot be read.
    struct Unreadable: SyncTileProvider {
        func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
            throw .unreadable(path: "/tiles/\(zoom)/\(x)/\(y).png", errno: EIO)
        }
    }

    func brokenService() throws -> TileService {
        var registry = SourceRegistry()
        registry.register("unreadable") { _, _ in .sync(Unreadable()) }
        let configuration = try Configuration.parse(yaml: """
        layers:
          - {name: broken, source: {type: unreadable}, maxZoom: 4}
        """, file: folder.path + "/t.yml", registry: registry)
        return TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: Fixtures.logger),
                           logger: Fixtures.logger)
    }

    @Test(arguments: [
        ("/nope/a/b/c/d", HTTPMethod.get, 404), ("/world/x/0/0.png", .get, 400), ("/world/0/0/0.png", .delete, 405),
        ("/world/9/0/0.png", .get, 404), ("/world/1/0/5.png", .get, 404), ("/nosuch/0/0/0.png", .get, 404),
        ("/nosuch.json", .get, 404), ("/static/nosuch/0,0,1/10x10.png", .get, 404),
    ])
    func routeLevelErrorsAreShortLivedTextWithCORS(path: String, method: HTTPMethod, status: Int) async throws {
        let response = try await Fixtures.service(folder: folder).get(path, method: method)
        #expect(response.status.code == status)
        #expect(response.headers[.cacheControl] == ServiceError.requestErrorCacheControl)
        #expect(response.headers[.accessControlAllowOrigin] == "*")
        #expect(response.headers[.contentType] == "text/plain; charset=utf-8")
        #expect(!response.body.isEmpty)
    }

    @Test func theSameFailureHasTheSameStatusOnATileAndOnAView() async throws {
        let service = try brokenService()
        let tile = try await service.get("/broken/1/0/0.png")
        let view = try await service.get("/static/broken/0,0,1/64x64.png")
        #expect(tile.status == .internalServerError)
        #expect(view.status == tile.status)
        for response in [tile, view] {
            #expect(response.headers[.cacheControl] == "no-store")
            #expect(response.headers[.accessControlAllowOrigin] == "*")
        }
    }

    @Test func negativeXWraps() async throws {
        let service = try Fixtures.service(folder: folder)
        let wrapped = try await service.get("/world/2/-3/1.png")
        #expect(wrapped.status == .ok)
        #expect(wrapped.body == Fixtures.worldTile(2, 1, 1))
        #expect(try await service.get("/2/-4/1.png").body == Fixtures.worldTile(2, 0, 1))
        #expect(try await service.get("/world/2/-/1.png").status == .badRequest)
        #expect(try await service.get("/world/2/1/-1.png").status == .badRequest)
    }

    @Test func anUpstreamBodyOverTheLimitIsABadGatewayNotARetry() async throws {
        let upstream = try LiveServer(responder: TestUpstream())
        let provider = URLTileProvider(template: try URLTemplate("http://127.0.0.1:\(upstream.port)/{z}/{x}/{y}.png"),
                                       settings: UpstreamSettings(maxBodyBytes: 16), logger: Fixtures.logger)
        await #expect(throws: TileProviderError.self) { try await provider.requestTile(TileRequest(x: 0, y: 0, zoom: 1)) }
        let failure = TileFailure(key: TileKey(layer: "up", tile: .init(z: 1, x: 0, y: 0), scale: 1),
                                  error: .upstream(url: "http://example.org/1/0/0.png", reason: "TLS handshake failed"))
        #expect(failure.error.status == .badGateway)
        await upstream.stop()
    }

    @Test func corsMayBeAListOfOrigins() async throws {
        let service = try Fixtures.service(server: ", cors: [\"https://a.example\", \"https://b.example\"]", folder: folder)
        for path in ["/world/0/0/0.png", "/world/9/0/0.png", "/world.json", "/nope/a/b/c/d"] {
            let listed = try await service.get(path, headers: [.origin: "https://b.example"])
            #expect(listed.headers[.accessControlAllowOrigin] == "https://b.example", "\(path)")
            #expect(listed.headers[.vary] == "Origin", "\(path)")
            let other = try await service.get(path, headers: [.origin: "https://evil.example"])
            #expect(other.headers[.accessControlAllowOrigin] == nil, "\(path)")
            #expect(other.headers[.vary] == "Origin", "\(path)")
        }
        let preflight = try await service.get("/world/0/0/0.png", method: .options, headers: [.origin: "https://a.example"])
        #expect(preflight.headers[.accessControlAllowOrigin] == "https://a.example")
        // A memory hit (prepared answer) answers each origin with its own header.
        _ = try await service.get("/world/1/0/0.png", headers: [.origin: "https://a.example"])
        let hit = try await service.get("/world/1/0/0.png", headers: [.origin: "https://b.example"])
        #expect(hit.headers[.accessControlAllowOrigin] == "https://b.example")
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse(yaml: "server: {cors: [\"*\"]}\nlayers:\n  - {name: d, source: {type: debug}}\n", file: folder.path + "/t.yml")
        }
    }

    /// "No tile" in each of its forms carries the CORS headers of the request's origin, when
    /// read from the source and when the memory cache answers it (a hit of "no tile").
    @Test func noTileAnswersCarryCORS() async throws {
        let tiles = TemporaryFolder()
        tiles.write("0/0/0.png", Fixtures.worldTile(0, 0, 0))
        let service = try Fixtures.service(extraYAML: """
          - {name: missing, source: {type: directory, path: \(tiles.path)}, maxZoom: 2}
          - {name: nocontent, source: {type: directory, path: \(tiles.path)}, maxZoom: 2, emptyTile: "204"}
          - {name: blank, source: {type: directory, path: \(tiles.path)}, maxZoom: 2, emptyTile: transparent}
        """, server: ", cors: [\"https://a.example\", \"https://b.example\"]", folder: folder)
        for (layer, status) in [("missing", HTTPStatus.notFound), ("nocontent", .noContent), ("blank", .ok)] {
            for origin in ["https://a.example", "https://b.example", "https://a.example"] {
                let response = try await service.get("/\(layer)/1/1/1.png", headers: [.origin: origin])
                #expect(response.status == status, "\(layer)")
                #expect(response.headers[.accessControlAllowOrigin] == origin, "\(layer) \(origin)")
                #expect(response.headers[.vary] == "Origin", "\(layer)")
            }
        }
    }
}
