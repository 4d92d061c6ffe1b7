// Sockets: thin, non-blocking POSIX socket calls with no knowledge of HTTP.
// Invariant: every `Socket` handed out is non-blocking and close-on-exec; the owner closes it once.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A socket file descriptor. A value type: whoever holds it decides when to `close()` it, once.
public struct Socket: Sendable, Hashable {
    /// The file descriptor.
    public let descriptor: Int32

    /// Wraps an existing descriptor.
    public init(descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// The result of one `read`.
    public enum ReadResult: Equatable, Sendable {
        /// Some bytes arrived.
        case bytes(Int)
        /// The peer closed its side.
        case endOfFile
        /// Nothing to read now.
        case wouldBlock
        /// A hard error (reset, etc.).
        case failed(errno: Int32)
    }

    /// The result of one `write`/`writev`.
    public enum WriteResult: Equatable, Sendable {
        /// This many bytes were written (possibly fewer than offered).
        case written(Int)
        /// The send buffer is full.
        case wouldBlock
        /// A hard error (broken pipe, reset).
        case failed(errno: Int32)
    }

    /// The result of one `accept`.
    public enum AcceptResult: Sendable {
        /// A new connection, already non-blocking, and the peer's address as text.
        case accepted(Socket, peer: String)
        /// No pending connection.
        case wouldBlock
        /// Out of file descriptors (`EMFILE`/`ENFILE`): back off.
        case outOfDescriptors
        /// Another error; keep accepting.
        case failed(errno: Int32)
    }

    /// Reads into `buffer`.
    public func read(into buffer: UnsafeMutableRawBufferPointer) -> ReadResult {
        while true {
            let n = systemRead(descriptor, buffer.baseAddress, buffer.count)
            if n > 0 { return .bytes(n) }
            if n == 0 { return .endOfFile }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(errno: code)
        }
    }

    /// Writes the buffers in order with one `writev`; with `more`, tells the kernel that more
    /// follows at once (`MSG_MORE`), so a short head waits for the body's first segment.
    public func write(_ buffers: UnsafeBufferPointer<iovec>, more: Bool = false) -> WriteResult {
        Self.retrying { systemWritev(descriptor, buffers, more: more) }
    }

    /// Sends `count` bytes of the file `file` from `offset` with `sendfile`: the kernel moves
    /// them from the page cache to the socket, with no copy through this process.
    public func sendFile(_ file: Int32, offset: Int, count: Int) -> WriteResult {
        Self.retrying { systemSendfile(to: descriptor, from: file, offset: offset, count: count) }
    }

    /// Runs a write-like call until it is not interrupted, and classifies its result.
    private static func retrying(_ call: () -> Int) -> WriteResult {
        while true {
            let n = call()
            if n >= 0 { return .written(n) }
            let code = errno
            if code == EINTR { continue }
            if code == EAGAIN || code == EWOULDBLOCK { return .wouldBlock }
            return .failed(errno: code)
        }
    }

    /// Accepts one pending connection.
    public func accept() -> AcceptResult {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                acceptNonBlocking(descriptor, $0, &length)
            }
        }
        if fd >= 0 {
            let socket = Socket(descriptor: fd)
            socket.setNoDelay()
            return .accepted(socket, peer: SocketAddress.text(of: storage))
        }
        let code = errno
        switch code {
        case EAGAIN, EWOULDBLOCK, EINTR: return .wouldBlock
        case EMFILE, ENFILE, ENOBUFS, ENOMEM: return .outOfDescriptors
        default: return .failed(errno: code)
        }
    }

    /// Disables Nagle's algorithm: responses go out at once.
    public func setNoDelay() {
        var on: Int32 = 1
        _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Shuts down the sending side (the peer reads end of file after what was sent).
    public func shutdownWrite() {
        _ = shutdown(descriptor, Int32(SHUT_WR))
    }

    /// Closes the descriptor.
    public func close() {
        _ = systemClose(descriptor)
    }

    /// The local port this socket is bound to.
    public func localPort() throws(SocketError) -> Int {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) }
        }
        guard rc == 0 else { throw .systemCall(name: "getsockname", errno: errno) }
        return SocketAddress.port(of: storage)
    }
}
