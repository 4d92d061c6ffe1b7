import Sockets

/// A loopback port that refuses connections for as long as this lives: a socket bound to it
/// that never listens (`Socket.bound`). The kernel gives the port to no other socket meanwhile,
/// unlike a port taken from a server that was stopped, which the next server a parallel test
/// starts may be given (and then a request meant to be refused reaches it).
final class RefusingPort {
    let port: Int
    private let socket: Socket

    init() throws {
        socket = try Socket.bound(host: "127.0.0.1", port: 0)
        do {
            port = try socket.localPort()
        } catch {
            socket.close()
            throw error
        }
    }

    deinit { socket.close() }
}
