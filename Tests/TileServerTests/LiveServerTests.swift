import Foundation
import Sockets
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

/// The real server on a loopback port, spoken to with raw bytes.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct LiveServerTests {
    let folder = TemporaryFolder()

    private func withServer(
        _ transport: IOTransport, configure: (inout HTTPServerConfiguration) -> Void = { _ in },
        _ body: (Int) async throws -> Void
    ) async throws {
        let live = try LiveServer(responder: try Fixtures.service(folder: folder)) {
            $0.transport = transport
            configure(&$0)
        }
        try await body(live.port)
        await live.stop()
    }

    @Test(arguments: IOTransport.available)
    func keepAliveServesManyRequestsOnOneConnection(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let client = try RawHTTPClient(port: port)
            for (z, x, y) in [(0, 0, 0), (1, 1, 0), (2, 3, 3)] {
                let response = try #require(client.request("/\(z)/\(x)/\(y).png"))
                #expect(response.status == 200)
                #expect(response.body == Fixtures.worldTile(z, x, y))
                #expect(response.header("Content-Length") == String(response.body.count))
                #expect(response.header("Connection") == nil)
            }
        }
    }

    @Test(arguments: IOTransport.available)
    func cameraAnswersOverARealSocket(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let client = try RawHTTPClient(port: port)
            let response = try #require(client.request("/camera/world/-118.6,49.9,2/800x600.json?update=zoomIn&point=400,300"))
            #expect(response.status == 200)
            #expect(response.header("Content-Type") == "application/json")
            let object = try JSONSerialization.jsonObject(with: Data(response.body)) as! [String: Any]
            #expect((object["camera"] as! [String: Any])["zoom"] as? Int == 3)
            #expect(object["visibleRegion"] is [String: Any] && (object["points"] as! [Any]).count == 1)
            let bad = try #require(client.request("/camera/world/-118.6,49.9,2/800x600.json?update=zoomSideways"))
            #expect(bad.status == 400 && bad.text.contains("update 1"))
        }
    }

    @Test(arguments: IOTransport.available)
    func pipelinedResponsesComeBackInOrder(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let client = try RawHTTPClient(port: port)
            let paths = ["/1/0/0.png", "/healthz", "/1/1/1.png", "/nope", "/1/0/1.png"]
            client.send(paths.map { "GET \($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            let responses = paths.compactMap { _ in client.readResponse() }
            #expect(responses.map(\.status) == [200, 200, 200, 404, 200])
            #expect(responses[0].body == Fixtures.worldTile(1, 0, 0))
            #expect(responses[1].text == "ok\n")
            #expect(responses[2].body == Fixtures.worldTile(1, 1, 1))
            #expect(responses[4].body == Fixtures.worldTile(1, 0, 1))
        }
    }

    @Test(arguments: IOTransport.available)
    func http10ClosesUnlessKeepAliveIsAsked(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let plain = try RawHTTPClient(port: port)
            plain.send("GET /healthz HTTP/1.0\r\n\r\n")
            let response = try #require(plain.readResponse())
            #expect(response.status == 200)
            #expect(response.header("Connection") == "close")
            #expect(plain.isClosedByPeer())

            let keep = try RawHTTPClient(port: port)
            keep.send("GET /healthz HTTP/1.0\r\nConnection: keep-alive\r\n\r\n")
            #expect(keep.readResponse()?.header("Connection") == "keep-alive")
            keep.send("GET /healthz HTTP/1.0\r\n\r\n")
            #expect(keep.readResponse()?.status == 200)
        }
    }

    @Test(arguments: IOTransport.available)
    func connectionCloseIsHonoured(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let client = try RawHTTPClient(port: port)
            let response = try #require(client.request("/healthz", headers: ["Connection: close"]))
            #expect(response.header("Connection") == "close")
            #expect(client.isClosedByPeer())
        }
    }

    @Test(arguments: IOTransport.available)
    func headHasGETHeadersAndNoBody(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let client = try RawHTTPClient(port: port)
            // HEAD then GET pipelined: if HEAD sent a body, the GET's status line would be garbage.
            client.send("HEAD /2/1/1.png HTTP/1.1\r\nHost: x\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try #require(client.readResponse(head: true))
            #expect(head.status == 200)
            #expect(head.header("Content-Length") == String(Fixtures.worldTile(2, 1, 1).count))
            #expect(head.header("ETag") != nil)
            let next = try #require(client.readResponse())
            #expect(next.status == 200)
            #expect(next.text == "ok\n")
        }
    }

    @Test(arguments: IOTransport.available)
    func notModifiedHasNoBody(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let client = try RawHTTPClient(port: port)
            let first = try #require(client.request("/0/0/0.png"))
            let etag = try #require(first.header("ETag"))
            client.send("GET /0/0/0.png HTTP/1.1\r\nHost: x\r\nIf-None-Match: \(etag)\r\n\r\nGET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            let second = try #require(client.readResponse())
            #expect(second.status == 304)
            #expect(second.header("ETag") == etag)
            #expect(second.header("Content-Length") == nil)
            #expect(client.readResponse()?.text == "ok\n")
        }
    }

    static let badRequests = [
        ("GET /../etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /world/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /world%2f..%2f..%2fetc/passwd HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /0/0/0.png%00 HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GARBAGE\r\n\r\n", 400),
        ("GET / HTTP/1.1\r\n\r\n", 400),
        ("GET / HTTP/3.0\r\nHost: x\r\n\r\n", 505),
        ("DELETE /0/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n", 405),
        ("GET /nope/0/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n", 404),
        ("GET /0/0/x.png HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET * HTTP/1.1\r\nHost: x\r\n\r\n", 400),
        ("GET /0/0/0.png HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc", 413),
    ]

    @Test(arguments: IOTransport.available, badRequests)
    func badRequestsGetClearAnswers(transport: IOTransport, _ request: (raw: String, status: Int)) async throws {
        let (raw, status) = request
        try await withServer(transport) { port in
            let client = try RawHTTPClient(port: port)
            client.send(raw)
            let response = try #require(client.readResponse())
            #expect(response.status == status)
            #expect(!response.text.isEmpty)
            if status == 405 { #expect(response.header("Allow") == "GET, HEAD, OPTIONS") }
        }
    }

    @Test(arguments: IOTransport.available)
    func oversizedRequestLineAndHeadersGet414And431(transport: IOTransport) async throws {
        try await withServer(transport) { port in
            let long = try RawHTTPClient(port: port)
            long.send("GET /" + String(repeating: "a", count: 10000) + " HTTP/1.1\r\nHost: x\r\n\r\n")
            let uri = try #require(long.readResponse())
            #expect(uri.status == 414)
            #expect(uri.text.contains("8192"))

            let big = try RawHTTPClient(port: port)
            big.send("GET / HTTP/1.1\r\nHost: x\r\n" + String(repeating: "X-Pad: \(String(repeating: "p", count: 1000))\r\n", count: 40) + "\r\n")
            let headers = try #require(big.readResponse())
            #expect(headers.status == 431)
            #expect(big.isClosedByPeer())
        }
    }

    @Test(arguments: IOTransport.available)
    func stalledRequestGets408AndIsClosed(transport: IOTransport) async throws {
        try await withServer(transport, configure: { $0.headerTimeout = 0.5 }) { port in
            let slow = try RawHTTPClient(port: port, timeoutSeconds: Self.closeBoundSeconds)
            slow.send("GET /0/0/0.png HTTP/1.1\r\nHo")
            // A normal client is served meanwhile.
            let other = try RawHTTPClient(port: port)
            #expect(other.request("/healthz")?.status == 200)
            let response = try #require(slow.readResponse(), "no 408 within \(Self.closeBoundSeconds) s")
            #expect(response.status == 408)
            #expect(slow.ending() == .endOfFile)
        }
    }

    /// A read that waits this long for a close the server owes after 0.5 s: far above 0.5 s on a
    /// loaded machine, far below the 60 s default a timeout setting that was ignored would give.
    static let closeBoundSeconds = 5

    @Test(arguments: IOTransport.available)
    func idleKeepAliveConnectionIsClosedQuietly(transport: IOTransport) async throws {
        try await withServer(transport, configure: { $0.idleTimeout = 0.5 }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: Self.closeBoundSeconds)
            #expect(client.request("/healthz")?.status == 200)
            // Closed in order within the bound, with nothing sent first (no 408): not data, not a
            // timeout (still open after the bound), not a reset.
            #expect(client.ending() == .endOfFile)
        }
    }

    @Test(arguments: IOTransport.available)
    func connectionsBeyondTheLimitGet503(transport: IOTransport) async throws {
        try await withServer(transport, configure: { $0.maxConnections = 2 }) { port in
            let first = try RawHTTPClient(port: port)
            let second = try RawHTTPClient(port: port)
            #expect(first.request("/healthz")?.status == 200)
            #expect(second.request("/healthz")?.status == 200)
            let third = try RawHTTPClient(port: port)
            let refused = try #require(third.readResponse())
            #expect(refused.status == 503)
            #expect(refused.header("Retry-After") != nil)
            #expect(first.request("/healthz")?.status == 200)
        }
    }

    @Test(arguments: IOTransport.available)
    func shutdownClosesIdleConnectionsAndStopsAccepting(transport: IOTransport) async throws {
        // A port below the ephemeral range (32768 up on Linux): once this server lets it go, no
        // other test's server (port 0) can be given it before the refused connect below.
        let responder = try Fixtures.service(folder: folder)
        // A loop, not `lazy.compactMap(...).first`: that calls its closure twice for the port
        // it finds, and the second listen fails on the port the first one holds.
        var listening: LiveServer?
        for port in (20_000 ..< 32_000).shuffled().prefix(50) where listening == nil {
            listening = try? LiveServer(responder: responder) { $0.transport = transport; $0.port = port }
        }
        let live = try #require(listening, "none of 50 ports in 20000-31999 could be listened on")
        let client = try RawHTTPClient(port: live.port)
        #expect(client.request("/healthz")?.status == 200)
        await live.stop()
        #expect(client.isClosedByPeer())
        // Nothing listens on the port any more: the connection is refused (a failed expectation
        // if it is accepted, never a crash of the test process).
        #expect(throws: SocketError.systemCall(name: "connect 127.0.0.1:\(live.port)", errno: ECONNREFUSED)) {
            _ = try RawHTTPClient(port: live.port)
        }
    }
}

extension LiveServerTests {
    /// A server released without `shutdown()` while a connection is open keeps serving that
    /// connection (the connection holds it) instead of trapping on a dangling reference.
    @Test func serverReleasedWithOpenConnectionKeepsServingIt() async throws {
        var server: HTTPServer? = HTTPServer(
            configuration: HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: false),
            responder: try Fixtures.service(folder: folder), logger: Fixtures.logger)
        let port = try server!.start()
        let client = try RawHTTPClient(port: port)
        #expect(client.request("/healthz")?.status == 200)
        server = nil
        #expect(client.request("/healthz")?.status == 200)
        #expect(client.request("/0/0/0.png")?.body == Fixtures.worldTile(0, 0, 0))
    }
}
