import Dispatch
import Foundation
import Testing
import TileGeometry
import TileHTTP
@testable import TileProviders
@testable import TileServer

/// The `url` source against a second real HTTP server of ours (never a mock of the client).
@Suite(.timeLimit(.minutes(1))) struct UpstreamTests {
    /// The upstream: the first path segment chooses its behaviour, the rest is z/x/y.png.
    struct Upstream: HTTPResponder {
        func respond(
            to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
        ) -> HTTPResponse? {
            let png = HTTPResponse(status: .ok, headers: [.contentType: "image/png"], body: Fixtures.worldTile(1, 1, 0))
            switch request.pathSegments.first {
            case "ok": return png
            case "missing": return .text(.notFound, "no such tile")
            case "empty": return HTTPResponse(status: .noContent)
            case "fail": return HTTPResponse.text(.internalServerError, "upstream broke", headers: [.retryAfter: "30"])
            case "garbage": return HTTPResponse(status: .ok, headers: [.contentType: "text/html"], body: Array("<html>oops</html>".utf8))
            case "hang": return nil
            case "slow":
                DispatchQueue.global().asyncAfter(deadline: .now() + 0.2) { completion(png) }
                return nil
            case "identified":
                let identified = request.headers[HTTPHeaderName("User-Agent")] == "tilelayer-test (test@example.org)"
                    && request.headers[HTTPHeaderName("X-Api-Key")] == "k1"
                return identified ? png : .text(HTTPStatus(code: 403, reason: "Forbidden"), "who are you?")
            default: return .text(.notFound, "?")
            }
        }
    }

    let folder = TemporaryFolder()

    /// A layer per behaviour of `Upstream`; half a second to answer for `hang`, five seconds
    /// for the others (`slow` is 0.2 s late, which a busy machine may stretch past half a second).
    func withUpstream(_ body: (Int, TileService) async throws -> Void) async throws {
        let upstream = try LiveServer(responder: Upstream())
        let port = upstream.port
        let layers = ["ok", "missing", "empty", "fail", "garbage", "hang", "slow", "identified"].map { kind in
            """
              - name: \(kind)
                source:
                  type: url
                  template: "http://127.0.0.1:\(port)/\(kind)/{z}/{x}/{y}.png"
                  timeoutSeconds: \(kind == "hang" ? 0.5 : 5)
                  connectTimeoutSeconds: \(kind == "hang" ? 0.5 : 5)
                  retryAfterSeconds: 2
                  userAgent: "tilelayer-test (test@example.org)"
                  headers: {X-Api-Key: k1}
                maxZoom: 5
            """
        }.joined(separator: "\n")
        let service = try Fixtures.service(extraYAML: layers, folder: folder)
        try await body(port, service)
        await upstream.stop()
    }

    @Test func answersMapToTileNoTileUnavailableAndBadGateway() async throws {
        try await withUpstream { _, service in
            let ok = try await service.get("/ok/1/1/0.png")
            #expect(ok.status == .ok)
            #expect(ok.body == Fixtures.worldTile(1, 1, 0))
            #expect(try await service.get("/slow/1/1/0.png").status == .ok)  // slow but within the timeout
            #expect(try await service.get("/missing/1/1/0.png").status == .notFound)
            #expect(try await service.get("/empty/1/1/0.png").status == .notFound)
            let failed = try await service.get("/fail/1/1/0.png")
            #expect(failed.status == .serviceUnavailable)
            #expect(failed.headers[.retryAfter] == "30")  // the upstream's own Retry-After
            #expect(failed.headers[.cacheControl] == "no-store")
            #expect(try await service.get("/garbage/1/1/0.png").status == .badGateway)
            let hung = try await service.get("/hang/1/1/0.png")
            #expect(hung.status == .serviceUnavailable)
            #expect(hung.headers[.retryAfter] == "2")
            #expect(try await service.get("/identified/1/1/0.png").status == .ok)  // User-Agent and headers sent
        }
    }

    @Test func hotUpstreamTilesComeFromTheCache() async throws {
        try await withUpstream { _, service in
            _ = try await service.get("/ok/2/1/1.png")
            let before = service.cacheStatistics.hits
            for _ in 0 ..< 5 { #expect(try await service.get("/ok/2/1/1.png").status == .ok) }
            #expect(service.cacheStatistics.hits == before + 5)
        }
    }

    @Test func refusedConnectionIsNotAvailableNow() async throws {
        let refusing = try RefusingPort()
        let provider = URLTileProvider(template: try URLTemplate("http://127.0.0.1:\(refusing.port)/{z}/{x}/{y}.png"),
                                       settings: UpstreamSettings(connectTimeout: 0.5, totalTimeout: 1), logger: Fixtures.logger)
        #expect(try await provider.requestTile(TileRequest(x: 0, y: 0, zoom: 0)) == .unavailable(retryAfter: 5))
        withExtendedLifetime(refusing) {}  // refusing until the request has been made
    }

    @Test func urlConstructorClosureLikeGMSURLTileLayer() async throws {
        let upstream = try LiveServer(responder: Upstream())
        let port = upstream.port
        // Tiles on odd columns only: nil is "no tile here".
        let provider = URLTileProvider(urlConstructor: { x, y, zoom in
            x % 2 == 1 ? URL(string: "http://127.0.0.1:\(port)/ok/\(zoom)/\(x)/\(y).png") : nil
        }, logger: Fixtures.logger)
        guard case .tile(let tile) = try await provider.requestTile(TileRequest(x: 1, y: 0, zoom: 1)) else {
            Issue.record("expected a tile on an odd column")
            return
        }
        #expect(tile.data == Fixtures.worldTile(1, 1, 0))
        #expect(try await provider.requestTile(TileRequest(x: 2, y: 0, zoom: 2)) == .noTile)
        await upstream.stop()
    }
}
