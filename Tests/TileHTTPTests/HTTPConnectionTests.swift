#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Logging
import Sockets
import Testing
@testable import TileHTTP

/// The bytes `/file/N` answers with: byte i is i % 251.
private func filePattern(_ count: Int) -> [UInt8] {
    (0 ..< count).map { UInt8($0 % 251) }
}

/// A temporary file of `filePattern(count)`, open; removed and closed when released.
private final class PatternFile: Sendable {
    let descriptor: Int32

    init(count: Int) {
        var template = Array("/tmp/tilelayer-sendfile-XXXXXX".utf8CString)
        descriptor = mkstemp(&template)
        precondition(descriptor >= 0, "mkstemp failed")
        unlink(template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) })
        let bytes = filePattern(count)
        let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        precondition(written == count, "short write")
    }

    deinit { Glibc.close(descriptor) }
}

/// Answers `/bytes/N` with N bytes (synchronously), `/later/N` with N bytes after 20 ms,
/// `/slow/N` after 1 s, and `/file/N` with N bytes of a file (sent with sendfile).
private struct SizedResponder: HTTPResponder {
    func respond(
        to request: HTTPRequest, context: HTTPRequestContext, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        let count = request.pathSegments.count == 2 ? Int(request.pathSegments[1]) ?? 0 : 0
        if request.pathSegments.first == "file" {
            var response = HTTPResponse(status: .ok)
            let file = PatternFile(count: count)
            response.file = HTTPFileBody(descriptor: file.descriptor, count: count, owner: file)
            return response
        }
        let response = HTTPResponse(status: .ok, body: [UInt8](repeating: UInt8(count % 251), count: count))
        if request.pathSegments.first == "later" {
            DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) { completion(response) }
            return nil
        }
        if request.pathSegments.first == "slow" {
            DispatchQueue.global().asyncAfter(deadline: .now() + 1) { completion(response) }
            return nil
        }
        return response
    }
}

/// A blocking loopback client that reads Content-Length-framed answers.
private final class WireClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []

    init(port: Int, receiveBuffer: Int32? = nil) throws {
        let socket = try Socket.connect(host: "127.0.0.1", port: port)
        descriptor = dup(socket.descriptor)
        socket.close()
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    deinit { Glibc.close(descriptor) }

    func send(_ text: String) {
        let bytes = Array(text.utf8)
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return }
            sent += n
        }
    }

    func finishSending() { shutdown(descriptor, Int32(SHUT_WR)) }

    private func fill() -> Bool {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard n > 0 else { return false }
        buffer.append(contentsOf: chunk[..<n])
        return true
    }

    /// The status, body and Content-Length of the next answer (a HEAD answer has no body);
    /// nil on end of file or a 5 s silence.
    func readAnswer(head: Bool = false) -> (status: Int, body: [UInt8], length: Int)? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.indices.dropLast(3).first { Array(buffer[$0 ..< $0 + 4]) == terminator }
            if headEnd == nil && !fill() { return nil }
        }
        let text = String(decoding: buffer[..<headEnd!], as: UTF8.self).lowercased()
        buffer.removeFirst(headEnd! + 4)
        let status = Int(text.split(separator: " ")[1]) ?? 0
        let length = text.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingSpaces) } ?? 0
        let bodyLength = head ? 0 : length
        while buffer.count < bodyLength { if !fill() { return nil } }
        defer { buffer.removeFirst(bodyLength) }
        return (status, Array(buffer[..<bodyLength]), length)
    }

    var closedByPeer: Bool { buffer.isEmpty && !fill() }
}

@Suite(.timeLimit(.minutes(1))) struct HTTPConnectionTests {
    private func withServer(_ body: (Int) throws -> Void) async throws {
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, accessLog: false)
        let server = HTTPServer(configuration: configuration, responder: SizedResponder(),
                                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        let port = try server.start()
        var failure: (any Error)?
        do { try body(port) } catch { failure = error }
        // Always shut down: the server must outlive its connections.
        await withCheckedContinuation { continuation in server.shutdown(gracePeriod: 1) { continuation.resume() } }
        if let failure { throw failure }
    }

    /// Regression: pipelined answers that pass the output high-water mark and are written at
    /// once left the rest of the pipeline unparsed until the client sent more (it never does).
    @Test func pipelinedAnswersBeyondTheHighWaterMarkAllArrive() async throws {
        try await withServer { port in
            let client = try WireClient(port: port, receiveBuffer: 8 << 20)
            let sizes = [700_000, 700_000, 10, 700_000, 5]
            client.send(sizes.map { "GET /bytes/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            for size in sizes {
                let answer = try #require(client.readAnswer())
                #expect(answer.status == 200)
                #expect(answer.body.count == size)
            }
        }
    }

    /// Regression: a client that sends a pipeline and then half-closes (`shutdown(SHUT_WR)`,
    /// `nc -N`) must get every answer, even when answers are asynchronous.
    @Test(arguments: ["bytes", "later"])
    func halfClosedClientGetsEveryPipelinedAnswer(kind: String) async throws {
        try await withServer { port in
            let client = try WireClient(port: port)
            let sizes = [3, 100_000, 7]
            client.send(sizes.map { "GET /\(kind)/\($0) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            client.finishSending()
            for size in sizes {
                let answer = try #require(client.readAnswer())
                #expect(answer.body.count == size)
            }
            #expect(client.closedByPeer)
        }
    }

    /// File bodies go out with sendfile, in pipeline order between buffered answers, whole even
    /// when far larger than the socket buffer; HEAD announces the length and sends nothing.
    @Test func fileBodiesArriveWholeAndInOrder() async throws {
        try await withServer { port in
            let client = try WireClient(port: port, receiveBuffer: 64 << 10)
            let requests: [(method: String, path: String, count: Int)] = [
                ("GET", "file", 3_000_000), ("GET", "bytes", 10), ("HEAD", "file", 5_000), ("GET", "file", 1),
                ("GET", "later", 20), ("GET", "file", 70_000),
            ]
            client.send(requests.map { "\($0.method) /\($0.path)/\($0.count) HTTP/1.1\r\nHost: x\r\n\r\n" }.joined())
            for request in requests {
                let answer = try #require(client.readAnswer(head: request.method == "HEAD"))
                #expect(answer.status == 200)
                #expect(answer.length == request.count)
                switch (request.method, request.path) {
                case ("HEAD", _): #expect(answer.body.isEmpty)
                case (_, "file"): #expect(answer.body == filePattern(request.count))
                default: #expect(answer.body.count == request.count)
                }
            }
        }
    }

    /// Regression: a client that resets while a large answer is being written raised SIGPIPE
    /// in writev/sendfile, which ended the whole process (exit 141).
    @Test(arguments: ["bytes", "file"])
    func aClientResettingMidAnswerCostsOnlyItsConnection(kind: String) async throws {
        try await withServer { port in
            for _ in 0 ..< 3 {
                let client = try WireClient(port: port, receiveBuffer: 16 << 10)
                client.send("GET /\(kind)/8000000 HTTP/1.1\r\nHost: x\r\n\r\n")
                var reset = linger(l_onoff: 1, l_linger: 0)
                setsockopt(client.descriptor, SOL_SOCKET, SO_LINGER, &reset, socklen_t(MemoryLayout<linger>.size))
                usleep(50_000)
            }
            usleep(200_000)
            let after = try WireClient(port: port)
            after.send("GET /bytes/10 HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try #require(after.readAnswer()).status == 200)
        }
    }

    /// Regression: while an answer was pending the connection kept reading whatever the client
    /// sent into the parser's buffer, unbounded (hundreds of MB in a second from one client).
    @Test func aClientIsNotReadWhileItsAnswerIsPending() async throws {
        try await withServer { port in
            let client = try WireClient(port: port)
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
