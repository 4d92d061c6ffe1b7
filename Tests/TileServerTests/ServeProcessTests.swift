// `tilelayer serve` as a real process: its YAML limits and timeouts on the wire, SIGHUP
// reloads, and SIGTERM that lets a slow upstream request finish, exits 0 and frees the port.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Sockets
import Testing
import TileHTTP
@testable import TileServer

/// An upstream of ours that answers every tile with the world's 0/0/0 after `delay` seconds.
private struct SlowUpstream: HTTPResponder {
    let delay: Double

    func respond(
        to request: HTTPRequest, context: HTTPRequestContext, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let response = HTTPResponse(status: .ok, headers: [.contentType: "image/png"], body: Fixtures.worldTile(0, 0, 0))
        DispatchQueue.global().asyncAfter(deadline: .now() + delay) { completion(response) }
        return nil
    }
}

/// The built `tilelayer` binary, beside the test bundle.
private func tilelayerBinary() throws -> String {
    let bundle = (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") as NSString)
        .deletingLastPathComponent
    let path = bundle + "/tilelayer"
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ProcessTestError("no tilelayer binary at \(path): build the package (swift build) first")
    }
    return path
}

private struct ProcessTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A `tilelayer serve` child process; its port is read from its start-up log line.
private final class ServeProcess {
    let process = Process()
    private let errors = Pipe()
    private(set) var log = ""
    let port: Int

    init(config: String) throws {
        process.executableURL = URL(fileURLWithPath: try tilelayerBinary())
        process.arguments = ["serve", "--config", config]
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var found: Int?
        let reader = errors.fileHandleForReading
        let deadline = Date().addingTimeInterval(20)
        while found == nil && Date() < deadline && process.isRunning {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            if let range = log.range(of: #"at http://[^:]+:(\d+)/"#, options: .regularExpression) {
                let text = log[range]
                found = Int(text.split(separator: ":").last!.dropLast())
            }
        }
        guard let found else { throw ProcessTestError("tilelayer did not start: \(log)") }
        port = found
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits up to `seconds` for the exit; its status, or nil if still running.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}

@Suite(.serialized, .timeLimit(.minutes(2))) struct ServeProcessTests {
    let folder = TemporaryFolder()

    private func writeConfig(transport: IOTransport, upstreamPort: Int, extraLayer: String = "") -> String {
        let path = folder.path + "/serve.yml"
        let yaml = """
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
        FileManager.default.createFile(atPath: path, contents: Data(yaml.utf8))
        return path
    }

    @Test(arguments: IOTransport.available)
    func limitsReloadAndAGracefulStop(transport: IOTransport) async throws {
        let upstream = try LiveServer(responder: SlowUpstream(delay: 1.5))
        defer { Task { await upstream.stop() } }
        let config = writeConfig(transport: transport, upstreamPort: upstream.port)
        let serve = try ServeProcess(config: config)

        // The YAML's limits and timeouts, on the wire.
        let long = try RawHTTPClient(port: serve.port)
        long.send("GET /" + String(repeating: "a", count: 300) + " HTTP/1.1\r\nHost: x\r\n\r\n")
        let uri = try #require(long.readResponse())
        #expect(uri.status == 414)
        #expect(uri.text.contains("256"))

        let big = try RawHTTPClient(port: serve.port)
        big.send("GET / HTTP/1.1\r\nHost: x\r\nX-Pad: " + String(repeating: "p", count: 1100) + "\r\n\r\n")
        #expect(big.readResponse()?.status == 431)
        #expect(big.isClosedByPeer())

        let slow = try RawHTTPClient(port: serve.port, timeoutSeconds: 5)
        slow.send("GET /0/0/0.png HTTP/1.1\r\nHo")
        #expect(slow.readResponse()?.status == 408)
        #expect(slow.isClosedByPeer())

        // SIGHUP reloads: a layer added to the file appears.
        let client = try RawHTTPClient(port: serve.port)
        #expect(client.request("/extra/0/0/0.png")?.status == 404)
        _ = writeConfig(transport: transport, upstreamPort: upstream.port, extraLayer: """
          - name: extra
            source: {type: directory, path: \(Fixtures.worldFolder)}
        """)
        serve.signal(SIGHUP)
        var reloaded = false
        for _ in 0 ..< 100 where !reloaded {
            usleep(50_000)
            reloaded = try RawHTTPClient(port: serve.port).request("/extra/0/0/0.png")?.status == 200
        }
        #expect(reloaded)

        // SIGTERM while an upstream request is in flight: it finishes, then the process exits 0.
        let inFlight = try RawHTTPClient(port: serve.port, timeoutSeconds: 10)
        inFlight.send("GET /up/0/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(300_000)
        serve.signal(SIGTERM)
        let finished = try #require(inFlight.readResponse())
        #expect(finished.status == 200)
        #expect(finished.body == Fixtures.worldTile(0, 0, 0))
        #expect(serve.waitForExit(seconds: 15) == 0)
        #expect(throws: SocketError.self) { _ = try Socket.connect(host: "127.0.0.1", port: serve.port) }
        await upstream.stop()
    }

    @Test func aSecondSIGTERMExitsAtOnce() async throws {
        let upstream = try LiveServer(responder: SlowUpstream(delay: 30))
        defer { Task { await upstream.stop() } }
        let serve = try ServeProcess(config: writeConfig(transport: .platformDefault, upstreamPort: upstream.port))
        let stuck = try RawHTTPClient(port: serve.port, timeoutSeconds: 10)
        stuck.send("GET /up/1/0/0.png HTTP/1.1\r\nHost: x\r\n\r\n")
        usleep(300_000)
        serve.signal(SIGTERM)
        #expect(serve.waitForExit(seconds: 1) == nil, "the first SIGTERM waits for the request in flight")
        serve.signal(SIGTERM)
        #expect(serve.waitForExit(seconds: 3) == 128 + SIGTERM)
        await upstream.stop()
    }
}
