// An upstream tile server of ours that misbehaves on purpose, at the byte level our HTTP server
// never would: a body cut short (with a consistent Content-Length, or close-delimited), noise
// after a PNG signature, a body dripped a byte at a time, a reset.

import Foundation
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// A blocking HTTP/1.1 server on 127.0.0.1, a thread per connection, answering each request
/// once and closing. The first path segment says how to misbehave: `good`, `truncated` (half
/// the tile under a Content-Length of that half), `cut` (half the tile, no Content-Length,
/// then a close), `noise` (the PNG signature, then random bytes), `drip` (a whole head, then a
/// byte every `dripInterval`), `reset` (an RST instead of an answer). While `healed`, every
/// path gets the good tile.
final class MisbehavingUpstream: @unchecked Sendable {
    // `@unchecked Sendable`: the listening socket is immutable once made; the rest is atomic or locked.
    let port: Int
    /// The tile a good answer carries.
    let tile: [UInt8]
    let healed = Atomic<Bool>(false)
    /// Requests by first path segment.
    let requests = Mutex<[String: Int]>([:])
    /// Drip answers still being sent (their client has not gone).
    let dripsOpen = Atomic<Int>(0)
    /// Seconds between dripped bytes.
    let dripInterval: Double
    private let listening: LiveServerSocket
    private var listener: Int32 { listening.descriptor }
    private let stopped = Atomic<Bool>(false)

    init(tile: [UInt8], dripInterval: Double = 0.3) throws {
        self.tile = tile
        self.dripInterval = dripInterval
        listening = try LiveServerSocket()
        port = listening.port
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { stop() }

    /// Stops accepting (connections being answered finish their answer).
    func stop() {
        guard !stopped.exchange(true, ordering: .relaxed) else { return }
        shutdown(listener, Int32(SHUT_RDWR))  // wakes the accepting thread; the socket closes with `listening`
    }

    func count(_ kind: String) -> Int { requests.withLock { $0[kind] ?? 0 } }

    private func acceptLoop() {
        while !stopped.load(ordering: .relaxed) {
            let client = accept(listener, nil, nil)
            guard client >= 0 else { if errno == EINTR { continue } else { return } }
            Thread { [self] in
                answer(client)
            }.start()
        }
    }

    private func answer(_ client: Int32) {
        var closed = false
        defer { if !closed { close(client) } }
        guard let path = readRequestPath(client) else { return }
        let kind = path.split(separator: "/").first.map(String.init) ?? ""
        requests.withLock { $0[kind, default: 0] += 1 }
        let half = Array(tile.prefix(tile.count / 2))
        switch healed.load(ordering: .relaxed) ? "good" : kind {
        case "truncated": send(client, head(length: half.count) + half)
        case "cut": send(client, Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nConnection: close\r\n\r\n".utf8) + half)
        case "noise":
            let noise = Array(tile.prefix(8)) + (0 ..< tile.count - 8).map { _ in UInt8.random(in: 0 ... 255) }
            send(client, head(length: noise.count) + noise)
        case "drip": drip(client)
        case "reset":
            var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
            setsockopt(client, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            close(client)
            closed = true
        default: send(client, head(length: tile.count) + tile)
        }
    }

    /// The head and then the tile a byte every `dripInterval`, until the client goes.
    private func drip(_ client: Int32) {
        dripsOpen.add(1, ordering: .relaxed)
        defer { dripsOpen.subtract(1, ordering: .relaxed) }
        guard send(client, head(length: tile.count)) else { return }
        for byte in tile {
            Thread.sleep(forTimeInterval: dripInterval)
            if clientLeft(client) || !send(client, [byte]) { return }
        }
    }

    private func head(length: Int) -> [UInt8] {
        Array("HTTP/1.1 200 OK\r\nContent-Type: image/png\r\nContent-Length: \(length)\r\nConnection: close\r\n\r\n".utf8)
    }

    @discardableResult
    private func send(_ client: Int32, _ bytes: [UInt8]) -> Bool {
        var sent = 0
        while sent < bytes.count {
            let n = bytes[sent...].withUnsafeBytes { Glibc.send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard n > 0 else { return false }
            sent += n
        }
        return true
    }

    /// Whether the client closed its side (end-of-file or an error waiting to be read).
    private func clientLeft(_ client: Int32) -> Bool {
        var probe = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
        guard poll(&probe, 1, 0) > 0 else { return false }
        var byte: UInt8 = 0
        return recv(client, &byte, 1, Int32(MSG_PEEK | MSG_DONTWAIT)) <= 0
    }

    /// The request's path, once its head is read; nil when the client went first.
    private func readRequestPath(_ client: Int32) -> String? {
        var head: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: head, as: UTF8.self).contains("\r\n\r\n") {
            let n = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            guard n > 0, head.count < 65536 else { return nil }
            head += buffer[..<n]
        }
        let line = String(decoding: head.prefix { $0 != 13 }, as: UTF8.self).split(separator: " ")
        return line.count >= 2 ? String(line[1]) : nil
    }
}
