import Foundation

/// Runs the independent tools the imagery is checked against (GDAL's commands, Python with
/// rio-tiler, nginx, moto) as processes, on a thread of their own. A missing tool is a failure
/// naming the package to install, never a skip.
enum ExternalTool {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// The repository's root (tests read no path outside it, but for temporary folders).
    static let repositoryRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// Runs `arguments` (the first is looked up on PATH) at the lowest priority (nice 19: a
    /// reference computed for seconds must not take the cores from the render threads of the
    /// servers other tests run in-process); throws with its stderr and `package` (what to
    /// install) when it cannot start or exits non-zero. Returns its stdout.
    @discardableResult
    static func run(_ arguments: [String], package: String, environment: [String: String]? = nil) async throws -> String {
        try await withCheckedThrowingContinuation { continuation in
            Thread {
                continuation.resume(with: Result { try runBlocking(arguments, package: package, environment: environment) })
            }.start()
        }
    }

    private static func runBlocking(_ arguments: [String], package: String, environment: [String: String]?) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["nice", "-n", "19"] + arguments
        process.currentDirectoryURL = repositoryRoot
        if let environment { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch {
            throw Failure(description: "cannot run \(arguments[0]) (install \(package)): \(error)")
        }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "\(arguments.prefix(3).joined(separator: " ")) failed (it needs \(package)): "
                          + String(decoding: err, as: UTF8.self).suffix(1500))
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// A fresh temporary folder.
    static func temporaryFolder(_ prefix: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("\(prefix)-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }
}
