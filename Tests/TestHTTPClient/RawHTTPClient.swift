// A blocking loopback HTTP client for the live tests of the server's targets.
// It knows only Content-Length framing (no body after HEAD, 204 or 304), and a read gives up
// after its timeout of silence.

#if canImport(Glibc)
import Glibc
import Foundation
import Sockets

/// A response as read off the wire.
public struct RawResponse: Sendable {
    /// The status code.
    public var status: Int
    /// The header fields in order, names as sent, values trimmed.
    public var headers: [(String, String)]
    /// The body (empty for HEAD, 204 and 304).
    public var body: [UInt8]

    /// The first field named `name` (any case), nil when there is none.
    public func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    /// Its Content-Length (0 when it has none): a HEAD answer's says what GET's body would be.
    public var length: Int { header("content-length").flatMap { Int($0) } ?? 0 }

    /// The body as UTF-8 text.
    public var text: String { String(decoding: body, as: UTF8.self) }
}

/// A small blocking test client on a raw socket: sends any bytes (well-formed or not) and
/// reads responses one by one, knowing only Content-Length framing (all tilelayer uses).
/// `@unchecked Sendable`: a test uses it from one thread at a time.
public final class RawHTTPClient: @unchecked Sendable {
    private let socket: Socket
    private var buffer: [UInt8] = []
    /// The head of the last response read, as sent, without the empty line that ends it.
    public private(set) var lastHead = ""

    /// Connects to `port` on 127.0.0.1. A read gives up after `timeoutSeconds` without data;
    /// `receiveBuffer` sets the socket's receive buffer (SO_RCVBUF), to make the server's writes
    /// stop short.
    public init(port: Int, timeoutSeconds: Int = 10, receiveBuffer: Int32? = nil) throws {
        socket = try Socket.connect(host: "127.0.0.1", port: port)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        if var size = receiveBuffer {
            setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
    }

    deinit { socket.close() }

    /// The socket's descriptor, for options a test sets itself (SO_LINGER for a reset).
    public var descriptor: Int32 { socket.descriptor }

    /// Sends `text`'s UTF-8 bytes (as much as the server takes; a closed peer ends it early).
    public func send(_ text: String) {
        send(Array(text.utf8))
    }

    /// Sends `bytes` (as much as the server takes; a closed peer ends it early).
    public func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(socket.descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// Ends the sending half (the server reads end-of-file).
    public func finishSending() { shutdown(socket.descriptor, Int32(SHUT_WR)) }

    /// How a read ended.
    public enum ReadEnd: Equatable, Sendable { case data, endOfFile, timeout, reset }

    /// Reads more bytes.
    @discardableResult
    private func fill() -> ReadEnd {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let n = chunk.withUnsafeMutableBytes { recv(socket.descriptor, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[..<n])
            return .data
        }
        if n == 0 { return .endOfFile }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .timeout : .reset
    }

    /// Reads one response; `head` true for a HEAD request (no body follows whatever
    /// Content-Length says). Nil on end of file, a reset or a timeout before it is whole, or an
    /// unreadable status line.
    public func readResponse(head: Bool = false) -> RawResponse? {
        var headEnd: Int?
        while headEnd == nil {
            if let range = find([13, 10, 13, 10]) { headEnd = range } else if fill() != .data { return nil }
        }
        let headText = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        var lines = headText.components(separatedBy: "\r\n")
        let statusLine = lines.removeFirst().split(separator: " ")
        guard statusLine.count >= 2, let status = Int(statusLine[1]) else { return nil }
        let headers = lines.compactMap { line -> (String, String)? in
            guard let colon = line.firstIndex(of: ":") else { return nil }
            return (String(line[..<colon]), line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        lastHead = headText
        buffer.removeFirst(headEnd! + 4)
        let length = head || status == 204 || status == 304 ? 0
            : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
        while buffer.count < length { if fill() != .data { return nil } }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// How the connection ends once everything buffered is consumed: end-of-file (the server
    /// closed in order), a reset, or a timeout (the server kept it open), never confused.
    public func ending() -> ReadEnd {
        guard buffer.isEmpty else { return .data }
        return fill()
    }

    /// Whether the server closed the connection in order: end of file with nothing buffered. A
    /// receive timeout (the server kept it open) or a reset is not a close.
    public func isClosedByPeer() -> Bool { ending() == .endOfFile }

    /// One GET (or other method) and its response.
    public func request(_ path: String, method: String = "GET", headers: [String] = []) -> RawResponse? {
        send("\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\n" + headers.map { $0 + "\r\n" }.joined() + "\r\n")
        return readResponse(head: method == "HEAD")
    }

    private func find(_ pattern: [UInt8]) -> Int? {
        guard buffer.count >= pattern.count else { return nil }
        for index in 0 ... buffer.count - pattern.count where buffer[index] == pattern[0] {
            if Array(buffer[index ..< index + pattern.count]) == pattern { return index }
        }
        return nil
    }
}
#endif
