import Foundation
import Testing
import TestThreads

/// Tile sets of other formats written by independent implementations (GDAL's `ogr2ogr` and
/// `gdal_translate`, the reference `pmtiles` converter) through `scripts/make-format-fixtures.py`,
/// made once per test run in a temporary folder. A missing tool or package is a failure.
/// Every process runs off the Swift-concurrency pool (`offPool`): tests waiting for GDAL must
/// not stall other suites' tasks.
enum FormatFixtures {
    struct Unavailable: Error, CustomStringConvertible {
        var description: String
    }

    /// The folder holding vector.mbtiles, jpeg.mbtiles, vector.pmtiles, jpeg.pmtiles and dump/.
    static func folder() async throws -> String { try await offPool { try made.get() } }

    private static let made: Result<String, Unavailable> = {
        removeFoldersOfEndedRuns()
        let folder = NSTemporaryDirectory() + prefix + String(getpid())
        try? FileManager.default.removeItem(atPath: folder)  // a reused process number's
        let result = run("/usr/bin/env", ["python3", Fixtures.packageRoot + "/scripts/make-format-fixtures.py", folder])
        guard result.status == 0 else {
            return .failure(Unavailable(description: "make-format-fixtures.py failed (it needs gdal-bin and the pip packages "
                                        + "pmtiles and pillow: apt-get install gdal-bin; pip install pmtiles pillow; "
                                        + "scripts/setup.sh installs them): \(result.output)"))
        }
        return .success(folder)
    }()

    private static let prefix = "tilelayer-formats-"

    /// Each run's folder is named by its process: a folder whose process has ended (or an
    /// older, UUID-named one) is removed, so runs do not pile them up in the temporary folder.
    private static func removeFoldersOfEndedRuns() {
        let temporary = NSTemporaryDirectory()
        let names = (try? FileManager.default.contentsOfDirectory(atPath: temporary)) ?? []
        for name in names where name.hasPrefix(prefix) {
            if let process = Int32(name.dropFirst(prefix.count)), process == getpid() || kill(process, 0) == 0 || errno != ESRCH {
                continue
            }
            try? FileManager.default.removeItem(atPath: temporary + name)
        }
    }

    /// A tile's bytes as the `sqlite3` command-line tool reads them from an MBTiles file (TMS row).
    static func sqliteTile(_ path: String, z: Int, x: Int, y: Int) async throws -> [UInt8] {
        try await offPool { try blockingSQLiteTile(path, z: z, x: x, y: y) }
    }

    private static func blockingSQLiteTile(_ path: String, z: Int, x: Int, y: Int) throws -> [UInt8] {
        let row = (1 << z) - 1 - y
        let query = "select hex(tile_data) from tiles where zoom_level=\(z) and tile_column=\(x) and tile_row=\(row);"
        let result = run("/usr/bin/env", ["sqlite3", "-readonly", path, query])
        guard result.status == 0 else { throw Unavailable(description: "sqlite3 failed: \(result.output)") }
        return hexBytes(result.output.trimmingCharacters(in: .whitespacesAndNewlines))
    }

    /// Every tile [z, x, y] of an MBTiles file, as `sqlite3` lists them (XYZ rows).
    static func sqliteTiles(_ path: String) async throws -> [[Int]] {
        try await offPool { try blockingSQLiteTiles(path) }
    }

    private static func blockingSQLiteTiles(_ path: String) throws -> [[Int]] {
        let result = run("/usr/bin/env", ["sqlite3", "-readonly", path,
                                          "select zoom_level||','||tile_column||','||tile_row from tiles;"])
        guard result.status == 0 else { throw Unavailable(description: "sqlite3 failed: \(result.output)") }
        return result.output.split(separator: "\n").map { line in
            let v = line.split(separator: ",").map { Int($0)! }
            return [v[0], v[1], (1 << v[0]) - 1 - v[2]]
        }
    }

    /// Runs `python3 -c script arguments…`; its standard output, or a failure with its output.
    /// `packages`: the pip packages the script imports, each with its module; a missing one is a
    /// failure that names the pip package to install.
    static func python(_ script: String, _ arguments: [String], packages: [(pip: String, module: String)] = []) async throws -> String {
        try await offPool { try blockingPython(script, arguments, packages: packages) }
    }

    private static func blockingPython(_ script: String, _ arguments: [String], packages: [(pip: String, module: String)]) throws -> String {
        for (pip, module) in packages where run("/usr/bin/env", ["python3", "-c", "import " + module]).status != 0 {
            throw Unavailable(description: "python3 with the pip package \(pip) is needed (pip install \(pip); scripts/setup.sh installs it)")
        }
        let result = run("/usr/bin/env", ["python3", "-c", script] + arguments)
        guard result.status == 0 else { throw Unavailable(description: "python3 failed: \(result.output)") }
        return result.output
    }

    static func run(_ executable: String, _ arguments: [String]) -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        do { try process.run() } catch { return (-1, "\(error)") }
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self))
    }

    private static func hexBytes(_ text: String) -> [UInt8] {
        var bytes: [UInt8] = []
        var index = text.startIndex
        while let next = text.index(index, offsetBy: 2, limitedBy: text.endIndex), next > index {
            bytes.append(UInt8(text[index ..< next], radix: 16)!)
            index = next
        }
        return bytes
    }
}
