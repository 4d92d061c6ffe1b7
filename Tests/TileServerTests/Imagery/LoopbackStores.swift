import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Object stores on loopback for the imagery tests: moto's S3 server (objects put with boto3)
/// and nginx serving files with `Range`. A missing program is a failure naming its package.
final class LoopbackStore {
    let port: Int
    let process = Process()
    let log: String

    /// moto's S3 server; with `checkingCredentials`, every request needs keys moto knows (none: 403).
    static func moto(checkingCredentials: Bool = false) throws -> LoopbackStore {
        let port = try RedisServerProcess.freePort()
        return try LoopbackStore(port: port, arguments: ["moto_server", "-H", "127.0.0.1", "-p", String(port)],
                                 environment: checkingCredentials ? ["INITIAL_NO_AUTH_ACTION_COUNT": "0"] : [:],
                                 package: "moto[server] (pip)")
    }

    /// nginx serving `root` on loopback (Range requests answered 206).
    static func nginx(root: String, scratch: String) throws -> LoopbackStore {
        let port = try RedisServerProcess.freePort()
        let config = scratch + "/nginx.conf"
        try Data("""
        worker_processes 1;
        pid \(scratch)/nginx.pid;
        error_log \(scratch)/nginx-error.log;
        events { worker_connections 64; }
        http {
            access_log off;
            client_body_temp_path \(scratch)/body; proxy_temp_path \(scratch)/proxy;
            fastcgi_temp_path \(scratch)/fastcgi; uwsgi_temp_path \(scratch)/uwsgi; scgi_temp_path \(scratch)/scgi;
            server { listen 127.0.0.1:\(port); root \(root); }
        }
        """.utf8).write(to: URL(fileURLWithPath: config))
        let nginx = FileManager.default.isExecutableFile(atPath: "/usr/sbin/nginx") ? "/usr/sbin/nginx" : "nginx"
        return try LoopbackStore(port: port, arguments: [nginx, "-p", scratch, "-c", config, "-g", "daemon off;"],
                                 environment: [:], package: "nginx (Debian)")
    }

    private init(port: Int, arguments: [String], environment: [String: String], package: String) throws {
        self.port = port
        log = NSTemporaryDirectory() + "tilelayer-store-\(UUID().uuidString).log"
        FileManager.default.createFile(atPath: log, contents: nil)
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let output = try FileHandle(forWritingTo: URL(fileURLWithPath: log))
        process.standardOutput = output
        process.standardError = output
        do { try process.run() } catch { throw ProcessTestError("cannot start \(arguments[0]) (install \(package)): \(error)") }
        let deadline = Date().addingTimeInterval(30)
        while !Self.accepts(port) {
            guard process.isRunning, Date() < deadline else {
                let said = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
                throw ProcessTestError("\(arguments[0]) did not start on port \(port) (install \(package)): \(said.suffix(1000))")
            }
            usleep(50_000)
        }
    }

    /// `http://127.0.0.1:PORT`.
    var endpoint: String { "http://127.0.0.1:\(port)" }

    /// Stops the store (its port then refuses): SIGTERM, then SIGKILL after 2 s (moto's server
    /// does not end on SIGTERM).
    func stop() {
        guard process.isRunning else { return }
        kill(process.processIdentifier, SIGTERM)
        let deadline = Date().addingTimeInterval(2)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        while process.isRunning { usleep(20_000) }
    }

    deinit { stop() }

    /// Puts `files` (path → key) into `bucket` with boto3 (`scripts/s3-put.py`).
    func put(bucket: String, _ files: [String: String]) throws {
        let put = Process()
        put.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        put.arguments = ["python3", Fixtures.packageRoot + "/scripts/s3-put.py", endpoint, bucket] + files.map { "\($0.key)=\($0.value)" }
        let errors = Pipe()
        put.standardError = errors
        try put.run()
        let said = errors.fileHandleForReading.readDataToEndOfFile()
        put.waitUntilExit()
        guard put.terminationStatus == 0 else {
            throw ProcessTestError("s3-put.py failed (it needs boto3: pip install boto3): \(String(decoding: said, as: UTF8.self))")
        }
    }

    private static func accepts(_ port: Int) -> Bool {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(descriptor) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) == 0 }
        }
    }
}
