// The sqlite3 command-line tool (installed by scripts/setup.sh), for tests that read or change an
// MBTiles file as another process would.

import Foundation

enum SQLiteCLI {
    struct Failure: Error, CustomStringConvertible {
        let description: String
    }

    /// `sql` run by `sqlite3` on the file at `path`, its output trimmed; throws, saying what
    /// sqlite3 printed, when it cannot run or fails (a missing tool is a failure, not a skip).
    @discardableResult
    static func run(_ path: String, _ sql: String) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["sqlite3", path, sql]
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        let message = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw Failure(description: "sqlite3 \(path) exited \(process.terminationStatus) for \"\(sql)\": "
                + String(decoding: message, as: UTF8.self))
        }
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
