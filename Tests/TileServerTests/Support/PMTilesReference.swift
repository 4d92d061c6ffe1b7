import Foundation
import Testing

/// Archives written by the reference implementation (the `pmtiles` package on PyPI) through
/// `scripts/make-pmtiles-fixture.py`, never by us. Missing Python or package is a failure.
enum PMTilesReference {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// Packs the shipped world pyramid into `out`; `maxRootBytes` makes the writer use leaf
    /// directories. Python runs off the Swift-concurrency pool (`offPool`): a test waiting for it
    /// must not stall other suites' tasks.
    static func writeWorld(to out: String, maxRootBytes: Int? = nil) async throws {
        try await offPool { try blockingWriteWorld(to: out, maxRootBytes: maxRootBytes) }
    }

    private static func blockingWriteWorld(to out: String, maxRootBytes: Int?) throws {
        let check = try run(["-c", "import pmtiles"])
        guard check.status == 0 else {
            throw Unavailable(description: "python3 with the pmtiles package is needed (pip install pmtiles): \(check.output)")
        }
        var arguments = [Fixtures.packageRoot + "/scripts/make-pmtiles-fixture.py", Fixtures.worldFolder, out]
        if let maxRootBytes { arguments += ["--max-root-bytes", String(maxRootBytes)] }
        let made = try run(arguments)
        guard made.status == 0 else { throw Unavailable(description: "make-pmtiles-fixture.py failed: \(made.output)") }
    }

    private static func run(_ arguments: [String]) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }
}
