import Prometheus
import Testing
import TileGeometry
import TileHTTP
import TileProviders
@testable import TileServer

/// Upstream failures counted by kind, against a second in-process server of ours.
@Suite(.timeLimit(.minutes(1))) struct MetricsUpstreamTests {
    /// The upstream: `/500/…` fails, `/429/…` is throttled, `/slow/…` never answers, else a PNG.
    struct Upstream: HTTPResponder {
        func respond(
            to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
        ) -> HTTPResponse? {
            switch request.pathSegments.first {
            case "500": return .text(.internalServerError, "broken")
            case "429": return .text(HTTPStatus(code: 429, reason: "Too Many Requests"), "slow down")
            case "slow": return nil
            default: return HTTPResponse(status: .ok, headers: [.contentType: "image/png"], body: TransparentTile.png256)
            }
        }
    }

    @Test func failuresAreCountedByKind() async throws {
        let upstream = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: false),
                                  responder: Upstream(), logger: Fixtures.logger)
        let port = try upstream.start()
        let refusing = try RefusingPort()
        let closedPort = refusing.port

        let registry = PrometheusCollectorRegistry()
        let factory = TileMetrics.makeFactory(registry: registry)
        // Half a second for the upstream that never answers; ten for the others, which a busy
        // machine (a full parallel test run) may take longer than half a second to answer.
        func provider(_ base: String, timeout: Double) async throws -> URLTileProvider {
            let settings = UpstreamSettings(connectTimeout: timeout, totalTimeout: timeout, retryAfter: 1)
            return URLTileProvider(template: try URLTemplate("\(base)/{z}/{x}/{y}.png"), settings: settings, logger: Fixtures.logger,
                                   metrics: UpstreamMetrics(factory: factory, dimensions: [("layer", "up")]))
        }
        let request = TileRequest(tile: TileCoordinate(z: 0, x: 0, y: 0))
        let cases: [(String, UpstreamFailureKind?)] = [
            ("http://127.0.0.1:\(port)", nil),
            ("http://127.0.0.1:\(port)/500", .status5xx),
            ("http://127.0.0.1:\(port)/429", .other),
            ("http://127.0.0.1:\(port)/slow", .timeout),
            ("http://127.0.0.1:\(closedPort)", .connect),
        ]
        for (base, kind) in cases {
            _ = try await provider(base, timeout: kind == .timeout ? 0.5 : 10).requestTile(request)
        }
        withExtendedLifetime(refusing) {}  // refusing until every case has been asked
        let page = try PrometheusExposition(registry.emitToString())
        #expect(page.value(UpstreamMetrics.requestsName, ["layer": "up"]) == Double(cases.count))
        for kind in UpstreamFailureKind.allCases {
            let expected = cases.filter { $0.1 == kind }.count
            #expect(page.value(UpstreamMetrics.failuresName, ["layer": "up", "kind": kind.rawValue]) == Double(expected),
                    "kind \(kind)")
        }
        await withCheckedContinuation { continuation in upstream.shutdown(gracePeriod: 0.5) { continuation.resume() } }
    }
}
