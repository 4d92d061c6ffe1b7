import Glibc
import Sockets

/// A loopback port that refuses connections for as long as this lives: a socket bound to it
/// that never listens. The kernel gives the port to no other socket meanwhile, unlike a port
/// taken from a server that was stopped, which the next server a parallel test starts may be
/// given (and then a request meant to be refused reaches it).
final class RefusingPort {
    let port: Int
    private let socket: Socket

    init() throws {
        let descriptor = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard descriptor >= 0 else { throw SocketError.systemCall(name: "socket", errno: errno) }
        socket = Socket(descriptor: descriptor)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0 else {
            let code = errno
            socket.close()
            throw SocketError.systemCall(name: "bind", errno: code)
        }
        port = try socket.localPort()
    }

    deinit { socket.close() }
}
