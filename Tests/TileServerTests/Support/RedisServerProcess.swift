import Foundation
import Hiredis

#if canImport(Glibc)
import Glibc
#endif

/// A real `redis-server` for a test: on 127.0.0.1 at a free port, in a temporary folder, no
/// persistence (`--save '' --appendonly no`). Missing redis-server is a failure, not a skip.
/// `stop()` kills it (SIGKILL: as a crash looks); `start()` again reuses the port (a restart).
final class RedisServerProcess: @unchecked Sendable {
    // `@unchecked Sendable`: a test drives it from one task at a time.
    let port: Int
    let folder = TemporaryFolder()
    private var process: Process?

    static let executable = ["/usr/bin/redis-server", "/usr/local/bin/redis-server"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    init() throws {
        port = try Self.freePort()
        try start()
    }

    deinit { stop() }

    var url: String { "redis://127.0.0.1:\(port)/0" }
    var endpoint: RedisEndpoint { RedisEndpoint(host: "127.0.0.1", port: port) }

    func start() throws {
        guard let executable = Self.executable else {
            throw RedisTestError("redis-server is not installed (Debian: apt-get install redis-server); the Redis tests need it")
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = ["--port", "\(port)", "--bind", "127.0.0.1", "--save", "", "--appendonly", "no",
                             "--dir", folder.path, "--daemonize", "no", "--logfile", folder.path + "/redis.log"]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        self.process = process
        // Ready when it answers PING (within 10 s).
        for _ in 0 ..< 200 {
            if let connection = try? RedisConnection(endpoint: endpoint, timeoutMilliseconds: 200),
               (try? connection.command(["PING"])) == .status("PONG") { return }
            Thread.sleep(forTimeInterval: 0.05)
        }
        throw RedisTestError("redis-server did not answer PING on port \(port): "
            + ((try? String(contentsOfFile: folder.path + "/redis.log", encoding: .utf8)) ?? ""))
    }

    func stop() {
        guard let process, process.isRunning else { return }
        kill(process.processIdentifier, SIGKILL)
        process.waitUntilExit()
        self.process = nil
    }

    /// A connection for the test's own commands.
    func connection() throws -> RedisConnection {
        try RedisConnection(endpoint: endpoint, timeoutMilliseconds: 1000)
    }

    /// A port no one listens on now (bound to 0, read, closed).
    static func freePort() throws -> Int {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard bound else { throw RedisTestError("no free port") }
        return Int(UInt16(bigEndian: address.sin_port))
    }
}

struct RedisTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A TCP listener on 127.0.0.1 that never accepts: connections complete through the backlog,
/// and nothing is ever answered (a Redis that hangs).
final class LiveServerSocket {
    let descriptor: Int32
    let port: Int

    init() throws {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.descriptor = descriptor
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let listening = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { raw in
                bind(descriptor, raw, length) == 0 && listen(descriptor, 16) == 0 && getsockname(descriptor, raw, &length) == 0
            }
        }
        guard listening else { throw RedisTestError("cannot listen") }
        port = Int(UInt16(bigEndian: address.sin_port))
    }

    deinit { close(descriptor) }
}
