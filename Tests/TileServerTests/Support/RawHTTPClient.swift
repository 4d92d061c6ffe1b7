#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Sockets

/// A response as read off the wire.
struct RawResponse: Sendable {
    var status: Int
    var headers: [(String, String)]
    var body: [UInt8]

    func header(_ name: String) -> String? {
        headers.first { $0.0.lowercased() == name.lowercased() }?.1
    }

    var text: String { String(decoding: body, as: UTF8.self) }
}

/// A small blocking test client on a raw socket: sends any bytes (well-formed or not) and
/// reads responses one by one, knowing only Content-Length framing (all tilelayer uses).
/// `@unchecked Sendable`: a test uses it from one thread at a time.
final class RawHTTPClient: @unchecked Sendable {
    let socket: Socket
    private var buffer: [UInt8] = []

    init(port: Int, timeoutSeconds: Int = 10) throws {
        socket = try Socket.connect(host: "127.0.0.1", port: port)
        var timeout = timeval(tv_sec: timeoutSeconds, tv_usec: 0)
        setsockopt(socket.descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
    }

    deinit { socket.close() }

    func send(_ text: String) {
        send(Array(text.utf8))
    }

    func send(_ bytes: [UInt8]) {
        var sent = 0
        while sent < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.send(socket.descriptor, $0.baseAddress! + sent, bytes.count - sent, Int32(MSG_NOSIGNAL)) }
            if n <= 0 { return }
            sent += n
        }
    }

    /// How a read ended.
    enum ReadEnd: Equatable { case data, endOfFile, timeout, reset }

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

    /// Reads one response; `head` true for a HEAD request (no body follows whatever Content-Length says).
    func readResponse(head: Bool = false) -> RawResponse? {
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
        buffer.removeFirst(headEnd! + 4)
        let length = head || status == 204 || status == 304 ? 0
            : Int(headers.first { $0.0.lowercased() == "content-length" }?.1 ?? "0") ?? 0
        while buffer.count < length { if fill() != .data { return nil } }
        let body = Array(buffer[..<length])
        buffer.removeFirst(length)
        return RawResponse(status: status, headers: headers, body: body)
    }

    /// Whether the server closed the connection in order: end of file with nothing buffered. A
    /// receive timeout (the server kept it open) or a reset is not a close.
    func isClosedByPeer() -> Bool {
        buffer.isEmpty && fill() == .endOfFile
    }

    /// One GET (or other method) and its response.
    func request(_ path: String, method: String = "GET", headers: [String] = []) -> RawResponse? {
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
