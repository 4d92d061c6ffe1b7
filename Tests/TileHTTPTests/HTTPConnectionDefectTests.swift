// Live regressions for the connection defects the state machine fixed, on both transports.
// Each failed on e02591c (the flag-based connection).

#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Logging
import Sockets
import Synchronization
import TestHTTPClient
import Testing
@testable import TileHTTP
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HTTPConnectionDefectTests {
    /// Empty lines before a request line: the connection is answered 431 and closed after the
    /// header limit, instead of buffering without end.
    @Test(arguments: IOTransport.available)
    func anEmptyLineFloodIsCutOffAtTheHeaderLimit(transport: IOTransport) async throws {
        try await withLiveServer(transport, configure: { $0.limits.maxHeaderBytes = 4096 }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            client.send(String(repeating: "\r\n", count: 8192))
            let answer = try #require(client.readResponse())
            #expect(answer.status == 431)
            #expect(client.ending() == .endOfFile)
        }
    }

    /// Pipelined requests behind a slow one, the last with `Connection: close`: every answer
    /// arrives and the close is a FIN, not a reset that would discard them.
    @Test(arguments: IOTransport.available)
    func answersAfterASuspendedReadAreNotLostToAReset(transport: IOTransport) async throws {
        try await withLiveServer(transport) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            client.send("GET /later/5 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /bytes/7 HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"
                + "GET /bytes/9 HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(300_000)  // answers sit unread in our buffer while the server closes
            #expect(client.readResponse()?.body.count == 5)
            #expect(client.readResponse()?.body.count == 7)
            #expect(client.ending() == .endOfFile)
        }
    }

    /// The 503 for a client beyond `maxConnections` is readable: the server lingers instead of
    /// closing with the client's request unread (a reset).
    @Test(arguments: IOTransport.available)
    func theOverloadAnswerIsReadable(transport: IOTransport) async throws {
        try await withLiveServer(transport, configure: { $0.maxConnections = 1 }) { port in
            let first = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            first.send("GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(first.readResponse()?.status == 200)
            let second = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            second.send("GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(200_000)
            let answer = try #require(second.readResponse())
            #expect(answer.status == 503)
            #expect(second.ending() == .endOfFile)
        }
    }

    /// A pending answer has a deadline (503), and a second completion is ignored.
    @Test(arguments: IOTransport.available)
    func aPendingAnswerTimesOutAndASecondCompletionIsIgnored(transport: IOTransport) async throws {
        try await withLiveServer(transport, configure: { $0.answerTimeout = 0.5 }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            client.send("GET /never HTTP/1.1\r\nHost: x\r\n\r\n")
            let answer = try #require(client.readResponse())
            #expect(answer.status == 503)
            #expect(client.ending() == .endOfFile)
        }
        // The completion comes 20 ms later from a global queue, which tests running alongside
        // may hold up past half a second: a deadline no load reaches.
        try await withLiveServer(transport, configure: { $0.answerTimeout = 30 }) { port in
            let twice = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            twice.send("GET /twice/4 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(twice.readResponse()?.status == 200)
            twice.send("GET /bytes/3 HTTP/1.1\r\nHost: x\r\n\r\n")
            let next = try #require(twice.readResponse())
            #expect(next.status == 200, "the second completion was not sent as an extra answer")
            #expect(next.body.count == 3)
        }
    }

    /// Each deferred answer goes to its own request on a connection that answers some requests at
    /// once and some later (the connection gives its completions' address again once nothing
    /// holds it): a second completion of an answered request, arriving as the next pipelined
    /// request waits for its own, is not taken for that one's answer.
    @Test(arguments: IOTransport.available)
    func aDeferredAnswerGoesToItsOwnRequest(transport: IOTransport) async throws {
        try await withLiveServer(transport, configure: { $0.answerTimeout = 30 }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for count in [1, 2, 3, 4, 5] {
                client.send("GET /\(count % 2 == 0 ? "later" : "bytes")/\(count) HTTP/1.1\r\nHost: x\r\n\r\n")
                let answer = try #require(client.readResponse())
                #expect(answer.status == 200 && answer.body.count == count)
            }
            client.send("GET /twice/4 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /later/6 HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET /bytes/3 HTTP/1.1\r\nHost: x\r\n\r\n" + "GET /later/7 HTTP/1.1\r\nHost: x\r\n\r\n")
            for count in [4, 6, 3, 7] {
                let answer = try #require(client.readResponse())
                #expect(answer.status == 200 && answer.body.count == count, "the answer to the request for \(count) bytes")
            }
        }
    }

    /// `Expect: 100-continue`: the final status comes at once, without the body being sent.
    @Test(arguments: IOTransport.available)
    func expectContinueGetsItsFinalStatusAtOnce(transport: IOTransport) async throws {
        try await withLiveServer(transport) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            client.send("POST /bytes/2 HTTP/1.1\r\nHost: x\r\nContent-Length: 100\r\nExpect: 100-continue\r\n\r\n")
            let answer = try #require(client.readResponse())
            #expect(answer.status == 200)
            #expect(client.ending() == .endOfFile, "the unread body closes the connection")
        }
    }

    @Test(arguments: IOTransport.available)
    func versionTargetAndFieldRulesOnTheWire(transport: IOTransport) async throws {
        try await withLiveServer(transport, configure: { $0.limits.maxHeaderFields = 8 }) { port in
            let later = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            later.send("GET /bytes/1 HTTP/1.7\r\nHost: x\r\n\r\n")
            #expect(later.readResponse()?.status == 200)

            let star = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            star.send("GET * HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(star.readResponse()?.status == 400)

            let absolute = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            absolute.send("GET http://tiles.example.org/host HTTP/1.1\r\nHost: other\r\n\r\n")
            #expect(absolute.readResponse()?.text == "tiles.example.org\n")

            let fields = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            fields.send("GET /bytes/1 HTTP/1.1\r\nHost: x\r\n" + (0 ..< 9).map { "X-\($0): v\r\n" }.joined() + "\r\n")
            #expect(fields.readResponse()?.status == 431)
        }
    }

    @Test(arguments: IOTransport.available)
    func slowHeadersGet408AndIdleConnectionsClose(transport: IOTransport) async throws {
        try await withLiveServer(transport, configure: { $0.headerTimeout = 0.4; $0.idleTimeout = 0.6 }) { port in
            let slow = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            slow.send("GET /bytes/1 HTTP/1.1\r\n")
            #expect(slow.readResponse()?.status == 408)
            #expect(slow.ending() == .endOfFile)

            let idle = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            idle.send("GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(idle.readResponse()?.status == 200)
            #expect(idle.ending() == .endOfFile, "closed after the idle timeout, not left open")
        }
    }

    /// Shutdown closes an idle connection in order (end-of-file, no reset), and the server's
    /// completion runs only after every loop stopped.
    @Test(arguments: IOTransport.available)
    func shutdownClosesIdleConnectionsInOrder(transport: IOTransport) async throws {
        let (server, port) = try startedServer(transport)
        let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
        client.send("GET /bytes/1 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(client.readResponse()?.status == 200)
        await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 3) { continuation.resume() } }
        #expect(client.ending() == .endOfFile)
        #expect(server.connectionCount == 0)
        #expect(throws: SocketError.self) { _ = try Socket.connect(host: "127.0.0.1", port: port) }
    }

    /// Regression: a second `shutdown` returned without ever calling its completion (a caller
    /// awaiting it hung, its continuation leaked). It now runs when the first shutdown ends,
    /// which keeps its own grace period; a call after the end runs its completion at once.
    @Test(arguments: IOTransport.available)
    func aSecondShutdownEndsWithTheFirst(transport: IOTransport) throws {
        // Shut down once the request is taken: before that it is input not yet read, which a
        // shutdown rightly drops with the idle connection (a fixed wait lost that race on a
        // loaded machine).
        let taken = DispatchSemaphore(value: 0)
        let (server, port) = try startedServer(transport, responder: SignallingResponder(taken: taken))
        let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
        client.send("GET /slow/10 HTTP/1.1\r\nHost: x\r\n\r\n")
        #expect(taken.wait(timeout: .now() + 10) == .success, "the server took the request")
        let first = DispatchSemaphore(value: 0)
        let second = DispatchSemaphore(value: 0)
        let openAtSecond = Mutex(-1)
        server.shutdown(gracePeriod: 5) { first.signal() }
        server.shutdown(gracePeriod: 0) {
            openAtSecond.withLock { $0 = server.connectionCount }
            second.signal()
        }
        #expect(client.readResponse()?.status == 200, "the first call's grace period holds: the slow answer is sent")
        #expect(first.wait(timeout: .now() + 10) == .success)
        #expect(second.wait(timeout: .now() + 10) == .success, "the second call's completion runs")
        #expect(openAtSecond.withLock { $0 } == 0, "and only after the shutdown ended")
        let third = Mutex(false)
        server.shutdown(gracePeriod: 1) { third.withLock { $0 = true } }
        #expect(third.withLock { $0 }, "a call after the end completes at once")
    }

    /// A server on `transport` answering with `responder`, started; the test shuts it down.
    private func startedServer(
        _ transport: IOTransport, responder: some HTTPResponder = SizedResponder()
    ) throws -> (HTTPServer, Int) {
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: false, transport: transport)
        let server = HTTPServer(configuration: configuration, responder: responder,
                                logger: .init(label: "test") { _ in SwiftLogNoOpLogHandler() })
        return (server, try server.start())
    }
}

/// `SizedResponder`, signalling `taken` as each request reaches it.
private struct SignallingResponder: HTTPResponder {
    let taken: DispatchSemaphore

    func respond(
        to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        taken.signal()
        return SizedResponder().respond(to: request, completion: completion)
    }
}
