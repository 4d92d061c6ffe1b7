import Logging
import Sockets
import Synchronization
import Testing
@testable import TileHTTP

/// Keeps the counts the server tells it, as the tile files' budget does.
private final class CountedConnections: HTTPConnectionDescriptors {
    let opened = Atomic<Int>(0)
    let closed = Atomic<Int>(0)

    func connectionsChanged(by delta: Int) {
        if delta > 0 { opened.add(delta, ordering: .relaxed) } else { closed.add(-delta, ordering: .relaxed) }
    }
}

private struct NoContentResponder: HTTPResponder {
    func respond(
        to request: HTTPRequest, context: HTTPRequestContext, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        HTTPResponse(status: .noContent)
    }
}

/// What shares the open-file limit with the connections is told of every connection opened and
/// closed, a refused one (its 503 lingering) too.
@Suite(.timeLimit(.minutes(1))) struct HTTPConnectionDescriptorsTests {
    /// Waits up to 10 s for `condition`; whether it held.
    private func eventually(_ condition: () -> Bool) async throws -> Bool {
        for _ in 0 ..< 500 where !condition() { try await Task.sleep(for: .milliseconds(20)) }
        return condition()
    }

    @Test(arguments: IOTransport.available)
    func everyConnectionOpenedAndClosedIsTold(transport: IOTransport) async throws {
        let counted = CountedConnections()
        var configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, maxConnections: 2, accessLog: false,
                                                    transport: transport)
        configuration.connectionDescriptors = counted
        let server = HTTPServer(configuration: configuration, responder: NoContentResponder(), logger: Logger(label: "test"))
        let port = try server.start()
        let sockets = try (0 ..< 3).map { _ in try Socket.connect(host: "127.0.0.1", port: port) }
        // The third is refused (503) and closed by the server after a linger, maybe before a look.
        #expect(try await eventually { counted.opened.load(ordering: .relaxed) == 3 },
                "three connections opened, the one beyond the limit too")
        for socket in sockets { socket.close() }
        #expect(try await eventually { server.connectionCount == 0 })
        #expect(try await eventually { counted.closed.load(ordering: .relaxed) == 3 }, "each closed once")
        #expect(counted.opened.load(ordering: .relaxed) == 3)
        await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 1) { continuation.resume() } }
    }
}
