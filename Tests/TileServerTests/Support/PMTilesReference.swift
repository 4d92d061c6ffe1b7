import Dispatch
import Foundation
import Testing
import TestThreads

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

    /// The reference reader's view of an archive we wrote: its header and metadata as JSON
    /// (stdout), and every tile it finds written to `dump`/z/x/y. Throws when it cannot read it.
    /// `zooms`: only tiles of these zooms are written out (all are read and counted).
    static func read(_ archive: String, dumpingTilesTo dump: String, zooms: [Int]? = nil) async throws -> [String: Any] {
        let output = try await offPool { try readBlocking(archive, dumpingTilesTo: dump, zooms: zooms) }
        guard let object = try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any] else {
            throw Unavailable(description: "the pmtiles package's answer is not a JSON object: \(output)")
        }
        return object
    }

    private static func readBlocking(_ archive: String, dumpingTilesTo dump: String, zooms: [Int]?) throws -> String {
        let script = """
            import json, os, sys
            from pmtiles.reader import MmapSource, Reader, all_tiles
            with open(sys.argv[1], "rb") as f:
                source = MmapSource(f)
                reader = Reader(source)
                header = reader.header()
                count = 0
                zooms = None if sys.argv[3] == "all" else {int(z) for z in sys.argv[3].split(",")}
                for (z, x, y), data in all_tiles(source):
                    count += 1
                    if zooms is not None and z not in zooms:
                        continue
                    os.makedirs(f"{sys.argv[2]}/{z}/{x}", exist_ok=True)
                    with open(f"{sys.argv[2]}/{z}/{x}/{y}", "wb") as out:
                        out.write(data)
                result = {k: (v.value if hasattr(v, "value") else v) for k, v in header.items()}
                result["metadata"] = reader.metadata()
                result["tiles_read"] = count
                print(json.dumps(result))
            """
        let result = try run(["-c", script, archive, dump, zooms.map { $0.map(String.init).joined(separator: ",") } ?? "all"])
        guard result.status == 0 else {
            throw Unavailable(description: "the pmtiles package could not read \(archive): \(result.output)")
        }
        return result.output
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
