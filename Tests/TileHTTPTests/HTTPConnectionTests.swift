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

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HTTPConnectionTests {
    /// Regression: pipelined answers that pass the output high-water mark and are written at
    /// once left the rest of the pipeline unparsed until the client sent more (it never does).
    @Test(arguments: IOTransport.available)
    func pipelinedAnswersBeyondTheHighWaterMarkAllArrive(transport: IOTransport) async throws {
        try await withLiveServer(transport) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout, receiveBuffer: 8 << 20)
            let sizes = [700_000, 700_000, 10, 700_000, 5]
            client.send(sizes.map { "GET /bytes/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            for size in sizes {
                let answer = try #require(client.readResponse())
                #expect(answer.status == 200)
                #expect(answer.body.count == size)
            }
        }
    }

    /// Regression: a client that sends a pipeline and then half-closes (`shutdown(SHUT_WR)`,
    /// `nc -N`) must get every answer, even when answers are asynchronous.
    @Test(arguments: IOTransport.available, ["bytes", "later"])
    func halfClosedClientGetsEveryPipelinedAnswer(transport: IOTransport, kind: String) async throws {
        try await withLiveServer(transport) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            let sizes = [3, 100_000, 7]
            client.send(sizes.map { "GET /\(kind)/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            client.finishSending()
            for size in sizes {
                let answer = try #require(client.readResponse())
                #expect(answer.body.count == size)
            }
            #expect(client.isClosedByPeer())
        }
    }

    /// File bodies go out with sendfile, in pipeline order between buffered answers, whole even
    /// when far larger than the socket buffer; HEAD announces the length and sends nothing.
    @Test(arguments: IOTransport.available)
    func fileBodiesArriveWholeAndInOrder(transport: IOTransport) async throws {
        let requests: [(method: String, path: String, count: Int)] = [
            ("GET", "file", 3_000_000), ("GET", "bytes", 10), ("HEAD", "file", 5_000), ("GET", "file", 1),
            ("GET", "later", 20), ("GET", "file", 70_000),
        ]
        // Made before the server: writing megabytes on its loop would hold the first answer
        // (seconds in a debug build on a loaded machine) past the client's 5 s read timeout.
        for request in requests where request.path == "file" { _ = PatternFile.shared(count: request.count) }
        try await withLiveServer(transport) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout, receiveBuffer: 64 << 10)
            client.send(requests.map { "\($0.method) /\($0.path)/\($0.count) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            for request in requests {
                let answer = try #require(client.readResponse(head: request.method == "HEAD"))
                #expect(answer.status == 200)
                #expect(answer.length == request.count)
                switch (request.method, request.path) {
                case ("HEAD", _): #expect(answer.body.isEmpty)
                case (_, "file"): #expect(Bool(answer.body == filePattern(request.count)))
                default: #expect(answer.body.count == request.count)
                }
            }
        }
    }

    /// Regression: a client that resets while a large answer is being written raised SIGPIPE
    /// in writev/sendfile, which ended the whole process (exit 141).
    @Test(arguments: IOTransport.available, ["bytes", "file"])
    func aClientResettingMidAnswerCostsOnlyItsConnection(transport: IOTransport, kind: String) async throws {
        _ = PatternFile.shared(count: 8_000_000)  // made before the server: not on its loops
        try await withLiveServer(transport) { port in
            for _ in 0 ..< 3 {
                let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout, receiveBuffer: 16 << 10)
                client.send("GET /\(kind)/8000000 HTTP/1.1\r\nHost: x\r\n\r\n")
                var reset = linger(l_onoff: 1, l_linger: 0)
                setsockopt(client.descriptor, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
                usleep(50_000)
            }
            usleep(200_000)
            let after = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            after.send("GET /bytes/10 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try #require(after.readResponse()).status == 200)
        }
    }

    /// Regression: while an answer was pending the connection kept reading whatever the client
    /// sent into the parser's buffer, unbounded (hundreds of MB in a second from one client).
    @Test(arguments: IOTransport.available)
    func aClientIsNotReadWhileItsAnswerIsPending(transport: IOTransport) async throws {
        try await withLiveServer(transport) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            client.send("GET /slow/5 HTTP/1.1\r\nHost: x\r\n\r\n")
            usleep(100_000)
            _ = fcntl(client.descriptor, F_SETFL, fcntl(client.descriptor, F_GETFL, 0) | O_NONBLOCK)
            let junk = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 16)
            var accepted = 0
            let until = DispatchTime.now() + 0.5
            while DispatchTime.now() < until {
                let n = junk.withUnsafeBytes { Glibc.send(client.descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                if n > 0 { accepted += n } else { usleep(1000) }
            }
            // Only the kernel's socket buffers (a few MB on loopback) take anything.
            #expect(accepted < 48 << 20, "the server read \(accepted) bytes while its answer was pending")
        }
    }
}
