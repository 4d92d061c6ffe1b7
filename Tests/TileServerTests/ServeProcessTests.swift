// `tilelayer serve` as a real process: its YAML limits and timeouts on the wire, SIGHUP
// reloads, and SIGTERM that lets a slow upstream request finish, exits 0 and frees the port.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Sockets
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

/// An upstream of ours that answers every tile with the world's 0/0/0 after `delay` seconds.
private struct SlowUpstream: HTTPResponder {
    let delay: Double

    func respond(
        to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let response = HTTPResponse(status: .ok, headers: [.contentType: "image/png"], body: Fixtures.worldTile(0, 0, 0))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { completion(response) }
        return nil
    }
}

@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2))) struct ServeProcessTests {
    let folder = TemporaryFolder()

    private func writeConfig(transport: IOTransport, upstreamPort: Int) -> String {
        let path = folder.path + "/serve.yml"
        _ = FileManager.default.createFile(atPath: path, contents: Data(Self.yaml(transport: transport, upstreamPort: upstreamPort).utf8))
        return path
    }

    private static func yaml(transport: IOTransport, upstreamPort: Int, extraLayer: String = "") -> String {
        """
        server:
          host: 127.0.0.1
          port: 0
          transport: \(transport.rawValue)
          limits: {requestLineBytes: 256, headerBytes: 1024, headerFields: 16}
          timeouts: {headerSeconds: 0.5, idleSeconds: 5}
          log: {level: notice}
        layers:
          - name: world
            default: true
            source: {type: directory, path: \(Fixtures.worldFolder)}
          - name: up
            source: {type: url, template: "http://127.0.0.1:\(upstreamPort)/{z}/{x}/{y}.png", timeoutSeconds: 10}
            cache: {memory: false}
        \(extraLayer)
        """
    }

    /// What the scenario saw, gathered off the Swift-concurrency pool and checked on the test's task.
    private struct Seen: Sendable {
        var uriStatus: Int?
        var uriText = ""
        var bigStatus: Int?
        var bigClosed = false
        var slowStatus: Int?
        var slowClosed = false
        var beforeReload: Int?
        var reloaded = false
        var finished: RawResponse?
        var exitStatus: Int32?
        var portClosed = false
    }

    @Test(arguments: IOTransport.available)
    func limitsReloadAndAGracefulStop(transport: IOTransport) async throws {
        let upstream = try LiveServer(responder: SlowUpstream(delay: 1.5))
        let config = writeConfig(transport: transport, upstreamPort: upstream.port)
        let reloadedYAML = Self.yaml(transport: transport, upstreamPort: upstream.port, extraLayer: """
          - name: extra
            source: {type: directory, path: \(Fixtures.worldFolder)}
        """)
        // Blocking sockets and waits for the process: on this suite's own threads (`.ownThreads`).
        let seen: Seen = try {
            let serve = try ServeProcess(config: config)
            var seen = Seen()
            // The YAML's limits and timeouts, on the wire.
            let long = try RawHTTPClient(port: serve.port)
            long.send("GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\nHost: x\r\n\r\n")
            let uri = long.readResponse()
            (seen.uriStatus, seen.uriText) = (uri?.status, uri?.text ?? "")
            let big = try RawHTTPClient(port: serve.port)
            big.send("GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + String(repeating: "p", count: 1100) + "\r\n\r\n")
            seen.bigStatus = big.readResponse()?.status
            seen.bigClosed = big.isClosedByPeer()
            let slow = try RawHTTPClient(port: serve.port, timeoutSeconds: 5)
            slow.send("GET /0/0/0.png HTTP/1.1\r\nHo")
            seen.slowStatus = slow.readResponse()?.status
            seen.slowClosed = slow.isClosedByPeer()

            // SIGHUP reloads: a layer added to the file appears.
            seen.beforeReload = try RawHTTPClient(port: serve.port).request("/extra/0/0/0.png")?.status
            _ = FileManager.default.createFile(atPath: config, contents: Data(reloadedYAML.utf8))
            serve.signal(SIGHUP)
            for _ in 0 ..< 100 where !seen.reloaded {
                usleep(50_000)
                seen.reloaded = try RawHTTPClient(port: serve.port).request("/extra/0/0/0.png")?.status == 200
            }

            // SIGTERM while an upstream request is in flight: it finishes, then the process exits 0.
            let inFlight = try RawHTTPClient(port: serve.port, timeoutSeconds: 10)
            inFlight.send("GET /up/0/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(300_000)
            serve.signal(SIGTERM)
            seen.finished = inFlight.readResponse()
            seen.exitStatus = serve.waitForExit(seconds: 15)
            seen.portClosed = (try? Socket.connect(host: "127.0.0.1", port: serve.port)) == nil
            return seen
        }()
        await upstream.stop()
        #expect(seen.uriStatus == 414)
        #expect(seen.uriText.contains("256"))
        #expect(seen.bigStatus == 431)
        #expect(seen.bigClosed)
        #expect(seen.slowStatus == 408)
        #expect(seen.slowClosed)
        #expect(seen.beforeReload == 404)
        #expect(seen.reloaded)
        #expect(seen.finished?.status == 200)
        #expect(Bool(seen.finished?.body == Fixtures.worldTile(0, 0, 0)))
        #expect(seen.exitStatus == 0)
        #expect(seen.portClosed)
    }

    @Test func aSecondSIGTERMExitsAtOnce() async throws {
        let upstream = try LiveServer(responder: SlowUpstream(delay: 30))
        let config = writeConfig(transport: .platformDefault, upstreamPort: upstream.port)
        let (afterFirst, afterSecond): (Int32?, Int32?) = try {
            let serve = try ServeProcess(config: config)
            let stuck = try RawHTTPClient(port: serve.port, timeoutSeconds: 10)
            stuck.send("GET /up/1/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(300_000)
            serve.signal(SIGTERM)
            let afterFirst = serve.waitForExit(seconds: 1)
            serve.signal(SIGTERM)
            return (afterFirst, serve.waitForExit(seconds: 3))
        }()
        await upstream.stop()
        #expect(afterFirst == nil, "the first SIGTERM waits for the request in flight")
        #expect(afterSecond == 128 + SIGTERM)
    }
}
