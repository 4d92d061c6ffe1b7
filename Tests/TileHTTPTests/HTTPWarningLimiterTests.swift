import Dispatch
import Logging
import Sockets
import Synchronization
import Testing
@testable import TileHTTP

/// Collects the messages logged at warning level.
private final class WarningRecorder: Sendable {
    let messages = Mutex<[String]>([])

    var handler: @Sendable (String) -> any LogHandler {
        { [self] _ in Handler(recorder: self) }
    }

    struct Handler: LogHandler {
        let recorder: WarningRecorder
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }
        func log(event: LogEvent) {
            if event.level == .warning { recorder.messages.withLock { $0.append("\(event.message)") } }
        }
    }
}

@Suite(.timeLimit(.minutes(1))) struct HTTPWarningLimiterTests {
    @Test func letsOneLineThroughPerIntervalAndCountsTheRest() {
        var limiter = HTTPWarningLimiter()
        let second = UInt64(HTTPWarningLimiter.interval * 1e9)
        #expect(limiter.admit("limit", now: 1_000) == (true, 0))
        #expect(limiter.admit("limit", now: 1_001) == (false, 0))
        #expect(limiter.admit("limit", now: 1_000 + second - 1) == (false, 0))
        #expect(limiter.admit("descriptors", now: 1_002) == (true, 0))
        #expect(limiter.admit("limit", now: 1_000 + second) == (true, 2))
        #expect(limiter.admit("limit", now: 1_000 + 3 * second) == (true, 0))
    }

    /// Regression: every client refused at the connection limit logged a warning, so a flood of
    /// connects became a flood of log lines.
    @Test func refusedClientsDoNotFloodTheLog() async throws {
        let recorder = WarningRecorder()
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, maxConnections: 1, accessLog: false)
        let server = HTTPServer(configuration: configuration, responder: NothingResponder(),
                                logger: Logger(label: "test", factory: recorder.handler))
        let port = try server.start()
        let held = try Socket.connect(host: "127.0.0.1", port: port)
        while server.connectionCount < 1 { try await Task.sleep(for: .milliseconds(5)) }
        var refused: [Socket] = []
        for _ in 0 ..< 20 { refused.append(try Socket.connect(host: "127.0.0.1", port: port)) }
        try await Task.sleep(for: .milliseconds(300))
        let lines = recorder.messages.withLock { $0.filter { $0.contains("connection limit") } }
        #expect(lines.count == 1)
        for socket in refused + [held] { socket.close() }
        await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 1) { continuation.resume() } }
    }
}

private struct NothingResponder: HTTPResponder {
    func respond(
        to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        HTTPResponse(status: .noContent)
    }
}
