import Dispatch
import Foundation
import Prometheus
import Synchronization
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

/// Issue 56, failure 3: an upstream that sends its head and then a byte every 0.3 s. Its
/// `timeoutSeconds` bounds head and body together: the tile is a 503 from the tile endpoint
/// (the layer's CORS header, `Retry-After`, counted under route "tile" and as the layer's
/// upstream timeout), not the connection's answer timeout; the fetch is cancelled (the upstream
/// sees its client go) and a later request starts a fetch of its own; slow tiles hold only
/// their share of `maxConcurrency`, so the layer's other tiles are served behind them.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(1))) struct UpstreamDeadlineTests {
    let folder = TemporaryFolder()
    /// The connection's answer timeout: far beyond the layer's `timeoutSeconds` (the render
    /// threads that await upstream fetches are shared with the rest of a full test run, which
    /// can hold them for seconds).
    static let answerSeconds = 20.0

    /// A live server with layer `up` over `upstream`: `?kind=drip` picks the dripping answer.
    func start(_ upstream: MisbehavingUpstream, maxConcurrency: Int = 16) throws -> (HTTPServer, Int) {
        let yaml = """
        server:
          cors: "*"
          timeouts: {answerSeconds: \(Self.answerSeconds)}
        layers:
          - name: up
            source:
              type: url
              template: "http://127.0.0.1:\(upstream.port)/{kind}/{z}/{x}/{y}.png"
              variables: {kind: {values: [good, drip], default: good}}
              timeoutSeconds: 1.5
              maxConcurrency: \(maxConcurrency)
            maxZoom: 5
        """
        let configuration = try Fixtures.configuration(yaml, in: folder)
        // One registry for the service and its upstream's counters, as `ServerRunner` wires them.
        let registry = PrometheusCollectorRegistry()
        let state = try ServiceState(configuration: configuration, logger: Fixtures.logger,
                                     metrics: TileMetrics.makeFactory(registry: registry))
        let service = TileService(state: state, logger: Fixtures.logger, metrics: registry)
        let server = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, answerTimeout: Self.answerSeconds, accessLog: false),
            responder: service, logger: Fixtures.logger, metrics: service.httpMetrics)
        return (server, try server.start())
    }

    func stop(_ server: HTTPServer) async {
        await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 2) { continuation.resume() } }
    }

    func metrics(_ port: Int) throws -> PrometheusExposition {
        try PrometheusExposition(try #require(RawHTTPClient(port: port).request("/metrics")).text)
    }

    /// `requests` made at once, each on a thread and a connection of its own.
    static func inParallel(port: Int, _ paths: [String]) -> [RawResponse?] {
        let results = Mutex<[Int: RawResponse]>([:])
        let group = DispatchGroup()
        for (index, path) in paths.enumerated() {
            group.enter()
            Thread {
                let response = try? RawHTTPClient(port: port, timeoutSeconds: 30).request(path, headers: ["Origin: https://app.example.org"])
                results.withLock { $0[index] = response }
                group.leave()
            }.start()
        }
        group.wait()
        return results.withLock { table in paths.indices.map { table[$0] } }
    }

    @Test func aDrippingUpstreamIsCutAtItsDeadlineAnd503WithCORSUnderRouteTile() async throws {
        let upstream = try MisbehavingUpstream(tile: Fixtures.worldTile(1, 1, 0))
        let (server, port) = try start(upstream)
        let client = try RawHTTPClient(port: port, timeoutSeconds: 30)
        let response = try #require(client.request("/up/3/1/1.png?kind=drip", headers: ["Origin: https://app.example.org"]))
        #expect(response.status == 503)
        #expect(response.header("Access-Control-Allow-Origin") == "*")
        #expect(response.header("Retry-After") != nil)
        #expect(response.header("Cache-Control") == "no-store")
        #expect(!response.text.contains("no answer within"), "the tile's own 503, not the connection's: \(response.text)")

        let page = try metrics(port)
        #expect(page.value("tilelayer_http_requests_total", ["route": "tile", "status": "503"]) == 1)
        #expect(page.value("tilelayer_http_requests_total", ["route": "other", "status": "503"]) == nil)
        #expect(page.sum("tilelayer_upstream_failures_total", matching: ["layer": "up", "kind": "timeout"]) == 1)

        // The fetch was cancelled: the upstream saw its client go.
        let gone = try await eventually { upstream.dripsOpen.load(ordering: .relaxed) == 0 }
        #expect(gone, "the abandoned fetch still reads the drip")
        // A later request does not join a fetch that lives on: it makes one of its own.
        let again = try #require(client.request("/up/3/1/1.png?kind=drip"))
        #expect(again.status == 503)
        #expect(upstream.count("drip") == 2)
        upstream.stop()
        await stop(server)
    }

    @Test func slowTilesHoldOnlyTheirShareOfTheLayersConcurrency() async throws {
        let upstream = try MisbehavingUpstream(tile: Fixtures.worldTile(1, 1, 0))
        let (server, port) = try start(upstream, maxConcurrency: 2)
        let tile = Fixtures.worldTile(1, 1, 0)
        let drips = Thread.detachedResults { Self.inParallel(port: port, ["/up/3/0/0.png?kind=drip", "/up/3/0/1.png?kind=drip"]) }
        try await Task.sleep(for: .milliseconds(500))  // both drips hold the layer's two slots
        let good = try #require(try RawHTTPClient(port: port, timeoutSeconds: 30).request("/up/3/2/2.png"))
        #expect(good.status == 200, "a good tile waits for a slot, then is served: \(good.text.prefix(200))")
        #expect(good.body.count == tile.count)
        for drip in drips.wait() { #expect(drip?.status == 503) }
        upstream.stop()
        await stop(server)
    }
}

extension Thread {
    /// Runs `body` on a new thread; `wait()` returns its result.
    static func detachedResults<T: Sendable>(_ body: @escaping @Sendable () -> T) -> ThreadResult<T> {
        let result = ThreadResult<T>()
        Thread { result.set(body()) }.start()
        return result
    }
}

/// A result another thread sets once.
final class ThreadResult<T: Sendable>: Sendable {
    private let value = Mutex<T?>(nil)
    private let done = DispatchSemaphore(value: 0)

    func set(_ result: T) {
        value.withLock { $0 = result }
        done.signal()
    }

    func wait() -> T {
        done.wait()
        return value.withLock { $0! }
    }
}
