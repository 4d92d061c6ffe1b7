// `tilelayer serve` as a child process, for the tests that need the real binary (signals, its
// own open-file limit).

import Dispatch
import Foundation
import Synchronization
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

/// What a child process printed so far, filled by its reader thread.
private final class Printed: Sendable {
    let text = Mutex("")
}

/// What a finished `tilelayer` process left: its exit status and what it printed.
struct TilelayerRun {
    var status: Int32
    var output: String
    var errors: String
}

/// Runs the `tilelayer` binary with `arguments` in `folder` (the current folder when nil) and
/// waits for it (call from a test on its own threads): its status and its two outputs, read
/// together so that neither pipe can fill up and stall it. One still running after
/// `seconds` is killed (status 128 + SIGKILL), so a command that does not end fails its test
/// instead of hanging the run.
func runTilelayer(_ arguments: [String], in folder: String? = nil, seconds: Double = 30) throws -> TilelayerRun {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: try tilelayerBinary())
    process.arguments = arguments
    if let folder { process.currentDirectoryURL = URL(fileURLWithPath: folder) }
    let output = Pipe(), errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    process.standardInput = FileHandle.nullDevice
    try process.run()
    let pid = process.processIdentifier
    let watchdog = DispatchWorkItem { kill(pid, SIGKILL) }
    DispatchQueue.global().asyncAfter(deadline: .now() + seconds, execute: watchdog)
    defer { watchdog.cancel() }
    let errorText = Mutex("")
    let reader = DispatchGroup()
    DispatchQueue.global().async(group: reader) {
        let data = errors.fileHandleForReading.readDataToEndOfFile()
        errorText.withLock { $0 = String(decoding: data, as: UTF8.self) }
    }
    let outputText = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    reader.wait()
    process.waitUntilExit()
    return TilelayerRun(status: process.terminationStatus, output: outputText, errors: errorText.withLock { $0 })
}

struct ProcessTestError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A `tilelayer serve` child process; its port is read from its start-up log line. Its standard
/// error is read all along by a thread of its own (so a server that logs much never stalls on a
/// full pipe), and `log` is what it printed so far.
final class ServeProcess {
    let process = Process()
    private let errors = Pipe()
    private let printed = Printed()
    private let reader = DispatchGroup()
    let port: Int

    /// What the server printed on standard error so far.
    var log: String { printed.text.withLock { $0 } }

    /// Starts `tilelayer serve --config config`; with `openFileLimit`, under that open-file
    /// limit (soft and hard, set by the shell that then becomes the server); with `launcher`,
    /// through that command (it ends by running the binary, e.g. `setpriv … --`); `environment`
    /// is added to the test's own.
    init(config: String, openFileLimit: Int? = nil, launcher: [String] = [], environment: [String: String] = [:]) throws {
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 } }
        var command = [try tilelayerBinary(), "serve", "--config", config]
        if let openFileLimit {
            command = ["/bin/sh", "-c", "ulimit -n \(openFileLimit) && exec \"$@\"", "sh"] + command
        }
        command = launcher + command
        process.executableURL = URL(fileURLWithPath: command[0])
        process.arguments = Array(command.dropFirst())
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let handle = errors.fileHandleForReading
        let printed = self.printed
        DispatchQueue.global().async(group: reader) {
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                printed.text.withLock { $0 += String(decoding: chunk, as: UTF8.self) }
            }
        }
        var found: Int?
        let deadline = Date().addingTimeInterval(20)
        while found == nil && Date() < deadline && process.isRunning {
            let text = printed.text.withLock { $0 }
            if let range = text.range(of: #"at http://[^:]+:(\d+)/"#, options: .regularExpression) {
                found = Int(text[range].split(separator: ":").last!.dropLast())
            } else {
                usleep(20_000)
            }
        }
        guard let found else {
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            _ = reader.wait(timeout: .now() + 2)
            throw ProcessTestError("tilelayer did not start: \(printed.text.withLock { $0 })")
        }
        port = found
    }

    func signal(_ number: Int32) { kill(process.processIdentifier, number) }

    /// Waits up to `seconds` for the exit; its status, or nil if still running. After an exit,
    /// `log` holds everything the process printed.
    func waitForExit(seconds: Double) -> Int32? {
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning && Date() < deadline { usleep(20_000) }
        guard !process.isRunning else { return nil }
        _ = reader.wait(timeout: .now() + 5)
        return process.terminationStatus
    }

    /// Waits up to `seconds` until the log holds `text`; whether it does.
    func waitForLog(containing text: String, seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while !log.contains(text) && Date() < deadline && process.isRunning { usleep(20_000) }
        return log.contains(text)
    }

    deinit {
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
}
