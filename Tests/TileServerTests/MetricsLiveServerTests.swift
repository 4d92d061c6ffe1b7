import Dispatch
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

/// The real server on a loopback port, counting into the service's registry as `ServerRunner`
/// wires it: counters move by exactly the requests sent.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct MetricsLiveServerTests {
    let folder = TemporaryFolder()

    /// The server and service, sharing one registry.
    private func start() throws -> (HTTPServer, Int) {
        let service = try Fixtures.service(folder: folder)
        let server = HTTPServer(configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: false),
                                responder: service, logger: Fixtures.logger, metrics: service.httpMetrics)
        return (server, try server.start())
    }

    private func stop(_ server: HTTPServer) async {
        await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 2) { continuation.resume() } }
    }

    private func scrape(_ client: RawHTTPClient) async throws -> PrometheusExposition {
        let response = try #require(client.request("/metrics"))
        #expect(response.status == 200)
        #expect(response.header("Content-Type") == "text/plain; version=0.0.4; charset=utf-8")
        return try PrometheusExposition(response.text)
    }

    @Test func countersMoveUnderLoad() async throws {
        let (server, port) = try start()
        let scraper = try RawHTTPClient(port: port)
        let before = try await scrape(scraper)
        let tile = ["route": "tile", "status": "200"]

        let loader = try RawHTTPClient(port: port)
        let tiles = [(1, 0, 0), (1, 0, 1), (1, 1, 0), (1, 1, 1)]
        let rounds = 25
        var bodyBytes = 0
        for _ in 0 ..< rounds {
            for (z, x, y) in tiles {
                let response = try #require(loader.request("/\(z)/\(x)/\(y).png"))
                #expect(response.status == 200)
                bodyBytes += response.body.count
            }
        }
        let sent = rounds * tiles.count

        let after = try await scrape(scraper)
        func moved(_ name: String, _ labels: [String: String] = [:]) -> Double {
            (after.value(name, labels) ?? 0) - (before.value(name, labels) ?? 0)
        }
        #expect(moved("tilelayer_http_requests_total", tile) == Double(sent))
        #expect(moved("tilelayer_http_request_duration_seconds_count", ["route": "tile"]) == Double(sent))
        #expect(moved("tilelayer_cache_hits_total", ["layer": "world"]) == Double(sent - tiles.count))
        #expect(moved("tilelayer_cache_misses_total", ["layer": "world"]) == Double(tiles.count))
        #expect(moved("tilelayer_provider_calls_total", ["layer": "world"]) == Double(tiles.count))
        #expect(moved("tilelayer_http_response_bytes_total", ["route": "tile"]) > Double(bodyBytes))
        // The first scrape is counted once it was answered.
        #expect(after.value("tilelayer_http_requests_total", ["route": "metrics", "status": "200"]) == 1)
        #expect(after.types["tilelayer_http_request_duration_seconds"] == "histogram")
        #expect(after.value("tilelayer_http_request_duration_seconds_bucket", ["route": "tile", "le": "0.0005"]) != nil)
        #expect(after.value("tilelayer_http_open_connections") == 2)

        await stop(server)
    }

    @Test func openConnectionsFollowClients() async throws {
        let (server, port) = try start()
        let scraper = try RawHTTPClient(port: port)
        #expect(try await scrape(scraper).value("tilelayer_http_open_connections") == 1)
        var others = try (0 ..< 3).map { _ in try RawHTTPClient(port: port) }
        for client in others { #expect(client.request("/healthz")?.status == 200) }
        #expect(try await scrape(scraper).value("tilelayer_http_open_connections") == 4)
        others.removeAll()  // closes their sockets
        var open = 4.0
        let deadline = DispatchTime.now().uptimeNanoseconds + 5_000_000_000
        while open != 1, DispatchTime.now().uptimeNanoseconds < deadline {
            try await Task.sleep(for: .milliseconds(20))
            open = try await scrape(scraper).value("tilelayer_http_open_connections") ?? -1
        }
        #expect(open == 1)
        let page = try await scrape(scraper)
        #expect(page.value("tilelayer_http_connections_total") == 4)
        #expect(page.value("tilelayer_http_requests_total", ["route": "health", "status": "200"]) == 3)
        await stop(server)
    }

    @Test func unroutedAndMalformedRequestsCountAsOther() async throws {
        let (server, port) = try start()
        let client = try RawHTTPClient(port: port)
        #expect(client.request("/no/such/thing")?.status == 404)
        #expect(client.request("/also/not/here/at/all")?.status == 404)
        let broken = try RawHTTPClient(port: port)
        broken.send("GET / HTTP/1.1\r\nNo colon here\r\n\r\n")
        #expect(broken.readResponse()?.status == 400)
        let page = try await scrape(client)
        #expect(page.value("tilelayer_http_requests_total", ["route": "other", "status": "404"]) == 2)
        #expect(page.value("tilelayer_http_requests_total", ["route": "other", "status": "400"]) == 1)
        #expect(page.samples.allSatisfy { $0.labels["route"].map { !$0.contains("/") } ?? true })
        await stop(server)
    }
}
