#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Conversions between host strings and `sockaddr_storage`.
enum SocketAddress {
    /// Resolves a numeric address or a host name (first result) into a socket address.
    static func resolve(host: String, port: Int) throws(SocketError) -> sockaddr_storage {
        var hints = addrinfo()
        hints.ai_socktype = socketStreamType
        hints.ai_flags = AI_NUMERICSERV | AI_PASSIVE
        var result: UnsafeMutablePointer<addrinfo>?
        let lookup = host.isEmpty ? nil : host
        guard getaddrinfo(lookup, String(port), &hints, &result) == 0, let first = result else {
            throw .invalidAddress(host: host)
        }
        defer { freeaddrinfo(result) }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { target in
            let count = min(Int(first.pointee.ai_addrlen), target.count)
            target.copyMemory(from: UnsafeRawBufferPointer(start: first.pointee.ai_addr, count: count))
        }
        return storage
    }

    /// The numeric address of a peer, as text ("127.0.0.1", "::1").
    static func text(of storage: sockaddr_storage) -> String {
        var storage = storage
        var host = [CChar](repeating: 0, count: Int(NI_MAXHOST))
        let length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let rc = withUnsafePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                getnameinfo($0, length, &host, socklen_t(host.count), nil, 0, NI_NUMERICHOST)
            }
        }
        guard rc == 0 else { return "unknown" }
        return String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    /// The port of an IPv4 or IPv6 socket address.
    static func port(of storage: sockaddr_storage) -> Int {
        var storage = storage
        let family = storage.ss_family
        return withUnsafePointer(to: &storage) { pointer -> Int in
            if family == sa_family_t(AF_INET6) {
                return pointer.withMemoryRebound(to: sockaddr_in6.self, capacity: 1) {
                    Int(UInt16(bigEndian: $0.pointee.sin6_port))
                }
            }
            return pointer.withMemoryRebound(to: sockaddr_in.self, capacity: 1) {
                Int(UInt16(bigEndian: $0.pointee.sin_port))
            }
        }
    }
}
