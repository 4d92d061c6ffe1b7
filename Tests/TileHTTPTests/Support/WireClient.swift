// A blocking loopback client for live connection tests.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import Sockets
import Synchronization
@testable import TileHTTP

/// A blocking loopback client that reads Content-Length-framed answers.
final class WireClient {
    let descriptor: Int32
    private var buffer: [UInt8] = []
    /// The head of the last answer read, as sent, without the empty line that ends it.
    private(set) var lastHead = ""

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

    /// How a read ended.
    enum ReadEnd: Equatable { case data, endOfFile, timeout, reset }

    @discardableResult
    private func fill() -> ReadEnd {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        let n = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        if n > 0 {
            buffer.append(contentsOf: chunk[..<n])
            return .data
        }
        if n == 0 { return .endOfFile }
        return errno == EAGAIN || errno == EWOULDBLOCK ? .timeout : .reset
    }

    /// How the connection ends once everything buffered is consumed: end-of-file (the server
    /// closed in order), a reset, or a timeout (the server kept it open) — never confused.
    func ending() -> ReadEnd {
        guard buffer.isEmpty else { return .data }
        return fill()
    }

    /// The status, body and Content-Length of the next answer (a HEAD answer has no body);
    /// nil on end of file or a 5 s silence.
    func readAnswer(head: Bool = false) -> (status: Int, body: [UInt8], length: Int)? {
        let terminator: [UInt8] = [13, 10, 13, 10]
        var headEnd: Int?
        while headEnd == nil {
            headEnd = buffer.indices.dropLast(3).first { Array(buffer[$0 ..< $0 + 4]) == terminator }
            if headEnd == nil && fill() != .data { return nil }
        }
        lastHead = String(decoding: buffer[..<headEnd!], as: UTF8.self)
        let text = lastHead.lowercased()
        buffer.removeFirst(headEnd! + 4)
        let status = Int(text.split(separator: " ")[1]) ?? 0
        let length = text.split(separator: "\r\n").first { $0.hasPrefix("content-length:") }
            .flatMap { Int($0.dropFirst(15).trimmingSpaces) } ?? 0
        let bodyLength = head ? 0 : length
        while buffer.count < bodyLength { if fill() != .data { return nil } }
        defer { buffer.removeFirst(bodyLength) }
        return (status, Array(buffer[..<bodyLength]), length)
    }

    /// End-of-file with nothing buffered (a timeout or a reset is not a close).
    var closedByPeer: Bool { ending() == .endOfFile }
}
