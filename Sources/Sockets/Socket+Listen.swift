#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Socket {
    /// Default `listen` backlog: deep enough for a burst of thousands of connects.
    public static let defaultBacklog: Int32 = 4096

    /// Opens a non-blocking TCP socket listening on `host:port` (port 0 picks a free port).
    public static func listen(host: String, port: Int, backlog: Int32 = defaultBacklog) throws(SocketError) -> Socket {
        let socket = try bound(host: host, port: port, reuseAddress: true)
        guard systemListen(socket.descriptor, backlog) == 0 else {
            let code = errno
            socket.close()
            throw .systemCall(name: "listen", errno: code)
        }
        socket.setNonBlocking()
        return socket
    }

    /// Opens a TCP socket bound to `host:port` (port 0 picks a free port), not listening: while
    /// it stays open, connections to the port are refused and the kernel gives the port to no
    /// other socket (without `reuseAddress`, which lets a listener take a port whose old
    /// connections linger in TIME_WAIT).
    public static func bound(host: String, port: Int, reuseAddress: Bool = false) throws(SocketError) -> Socket {
        var address = try SocketAddress.resolve(host: host, port: port)
        let fd = socket(Int32(address.ss_family), socketStreamType, 0)
        guard fd >= 0 else { throw .systemCall(name: "socket", errno: errno) }
        let socket = Socket(descriptor: fd)
        if reuseAddress {
            var on: Int32 = 1
            _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, socklen_t(MemoryLayout<Int32>.size))
        }
        let length = address.ss_family == sa_family_t(AF_INET6)
            ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(length)) }
        }
        guard bound == 0 else {
            let code = errno
            socket.close()
            throw .systemCall(name: "bind \(host):\(port)", errno: code)
        }
        return socket
    }

    /// Opens a blocking TCP connection to `host:port` (for clients and tests).
    public static func connect(host: String, port: Int) throws(SocketError) -> Socket {
        var address = try SocketAddress.resolve(host: host, port: port)
        let fd = socket(Int32(address.ss_family), socketStreamType, 0)
        guard fd >= 0 else { throw .systemCall(name: "socket", errno: errno) }
        let length = address.ss_family == sa_family_t(AF_INET6)
            ? MemoryLayout<sockaddr_in6>.size : MemoryLayout<sockaddr_in>.size
        let rc = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { systemConnect(fd, $0, socklen_t(length)) }
        }
        guard rc == 0 else {
            let code = errno
            Socket(descriptor: fd).close()
            throw .systemCall(name: "connect \(host):\(port)", errno: code)
        }
        return Socket(descriptor: fd)
    }

    /// Puts the descriptor in non-blocking mode.
    public func setNonBlocking() {
        let flags = fcntl(descriptor, F_GETFL, 0)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
    }
}
