// `tilelayer serve` as a child process, for the tests that need the real binary (signals, its
// own open-file limit).

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// The built `tilelayer` binary, beside the test bundle.
func tilelayerBinary() throws -> String {
    let bundle = (try FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe") as NSString)
        .deletingLastPathComponent
    let path = bundle + "/tilelayer"
    guard FileManager.default.isExecutableFile(atPath: path) else {
        throw ProcessTestError("no tilelayer binary at \(path): build the package (swift build) first")
    }
    return path
}

struct ProcessTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A `tilelayer serve` child process; its port is read from its start-up log line. Its standard
/// error is read only until then: a configuration that logs much (an access log) would fill the
/// pipe and stall the server, so tests turn the access log off.
final class ServeProcess {
    let process = Process()
    private let errors = Pipe()
    private(set) var log = ""
    let port: Int

    /// Starts `tilelayer serve --config config`; with `openFileLimit`, under that open-file
    /// limit (soft and hard, set by the shell that then becomes the server); `environment` is
    /// added to the test's own.
    init(config: String, openFileLimit: Int? = nil, environment: [String: String] = [:]) throws {
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        if let openFileLimit {
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", "ulimit -n \(openFileLimit) && exec \"$0\" serve --config \"$1\"",
                                 try tilelayerBinary(), config]
        } else {
            process.executableURL = URL(fileURLWithPath: try tilelayerBinary())
            process.arguments = ["serve", "--config", config]
        }
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        var found: Int?
        let reader = errors.fileHandleForReading
        let deadline = Date().addingTimeInterval(20)
        while found == nil && Date() < deadline && process.isRunning {
            let chunk = reader.availableData
            if chunk.isEmpty { break }
            log += String(decoding: chunk, as: UTF8.self)
            if let range = log.range(of: #"at http://[^:]+:(\d+)/"#, options: .regularExpression) {
                let text = log[range]
                found = Int(text.split(separator: ":").last!.dropLast())
            }
        }
        guard let found else { throw ProcessTestError("tilelayer did not start: \(log)") }
        port = found
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits up to `seconds` for the exit; its status, or nil if still running.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
