// `tilelayer seed` and `tilelayer serve` as a user runs them: the built binary as a process,
// its exit status, what it prints on each output, and the file it writes.

import Foundation
import Testing
@testable import TileProviders
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct CommandProcessTests {
    let folder = TemporaryFolder()

    /// `good.yml`: the shipped world pyramid, a folder with one tile that is not a PNG, and the
    /// debug source.
    func writeGoodConfiguration() {
        folder.write("broken/1/0/0.png", Fixtures.worldTile(1, 0, 0))
        folder.write("broken/1/1/0.png", Array("not a png".utf8))
        folder.write("good.yml", Array("""
        layers:
          - {name: world, source: {type: directory, path: \(Fixtures.worldFolder)}, attribution: "Tom Patterson"}
          - {name: broken, source: {type: directory, path: broken}, minZoom: 1, maxZoom: 1}
          - {name: debug, source: {type: debug}, maxZoom: 22}
        """.utf8))
    }

    @Test func seedWritesAnMBTilesFileAndPrintsItsSummary() throws {
        writeGoodConfiguration()
        let run = try runTilelayer(["seed", "--config", "good.yml", "--layer", "world", "--zoom", "0-2", "--to", "out.mbtiles"],
                                   in: folder.path)
        #expect(run.status == 0, "\(run.errors)")
        #expect(run.output.hasPrefix("tilelayer seed: layer world: 21 tiles ("), "\(run.output)")
        #expect(run.output.contains(", 0 no-tile, 0 unavailable, 0 errors in "), "\(run.output)")
        #expect(run.errors.contains("seed: 21/21 100%"), "progress on standard error: \(run.errors)")
        let written = try MBTilesTileProvider(path: folder.path + "/out.mbtiles")
        #expect(written.metadata.minZoom == 0 && written.metadata.maxZoom == 2 && written.metadata.name == "world")
        for (z, x, y) in [(0, 0, 0), (1, 1, 0), (2, 3, 1)] {
            guard case .tile(let tile) = try written.tileFor(x: x, y: y, zoom: z) else { Issue.record("no tile \(z)/\(x)/\(y)"); continue }
            #expect(tile.data == Fixtures.worldTile(z, x, y), "\(z)/\(x)/\(y)")
        }
    }

    @Test func seedExitsOneNamingTheTileThatFailed() throws {
        writeGoodConfiguration()
        let run = try runTilelayer(["seed", "--config", "good.yml", "--layer", "broken", "--to", "b.mbtiles"], in: folder.path)
        #expect(run.status == 1)
        #expect(run.output.hasPrefix("tilelayer seed: layer broken: 1 tiles ("), "\(run.output)")
        #expect(run.output.contains(", 2 no-tile, 0 unavailable, 1 errors in "), "\(run.output)")
        #expect(run.errors.contains("tilelayer seed: broken/1/1/0: tile broken/1/1/0 is not a PNG"), "\(run.errors)")
    }

    /// Refusals of the command line are usage errors (64, EX_USAGE) whose message says what to do.
    @Test(arguments: [
        (["--layer", "nope", "--zoom", "0", "--to", "x.mbtiles"], "Error: no layer \"nope\" in good.yml (layers: world, broken, debug)"),
        (["--layer", "debug", "--zoom", "0-22", "--to", "x.mbtiles"],
         "Error: this would seed 23456248059221 tiles, more than --max-tiles 100000; narrow --zoom or --bbox, raise --max-tiles, or pass --force"),
        (["--layer", "world", "--zoom", "0"],
         "Error: layer \"world\" has no cache.disk: seeding would only fill this process's memory; configure cache.disk for it or write a file with --to FILE.mbtiles"),
    ])
    func seedRefusesWithAUsageError(arguments: [String], message: String) throws {
        writeGoodConfiguration()
        let run = try runTilelayer(["seed", "--config", "good.yml"] + arguments, in: folder.path)
        #expect(run.status == 64)
        #expect(run.errors.hasPrefix(message + "\n"), "\(run.errors)")
        #expect(run.output.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/x.mbtiles"))
    }

    /// A configuration that does not load stops `serve` (and `seed`) at once: status 1, and one
    /// line naming the file, the line, the key and what is wrong; nothing is served.
    @Test(arguments: [
        ("server:\n  hots: x\nlayers:\n  - {name: d, source: {type: debug}}\n",
         "tilelayer: bad configuration: bad.yml:2: server.hots: unknown key (known keys here: host, port, publicURL, "
            + "allowedHosts, cors, adminToken, cache, limits, timeouts, log, transport, workers, s3)"),
        ("server: {port: http}\nlayers:\n  - {name: d, source: {type: debug}}\n", "tilelayer: bad configuration: bad.yml:1: server.port: "),
        ("layers:\n  - {name: d, source: {type: directory, path: missing}}\n",
         "tilelayer: bad configuration: bad.yml:2: layers[0].source.path: folder FOLDER/missing does not exist"),
    ])
    func serveStopsOnABadConfiguration(yaml: String, message: String) throws {
        folder.write("bad.yml", Array(yaml.utf8))
        let expected = message.replacingOccurrences(of: "FOLDER", with: folder.path)
        for command in ["serve", "seed"] {
            let arguments = command == "serve" ? ["serve", "--config", "bad.yml", "--port", "0"]
                : ["seed", "--config", "bad.yml", "--layer", "d", "--zoom", "0", "--to", "x.mbtiles"]
            let run = try runTilelayer(arguments, in: folder.path)
            #expect(run.status == 1, "\(command)")
            #expect(run.errors.hasPrefix(expected), "\(command): \(run.errors)")
            #expect(run.errors.split(separator: "\n").count == 1, "\(command): one line: \(run.errors)")
            #expect(!run.errors.contains("serving"), "\(command) served nothing")
        }
    }

    @Test func serveStopsWhenTheConfigurationFileIsMissing() throws {
        let run = try runTilelayer(["serve", "--config", "nope.yml", "--port", "0"], in: folder.path)
        #expect(run.status == 1)
        #expect(run.errors.hasPrefix("tilelayer: bad configuration: nope.yml: cannot read the configuration file: "), "\(run.errors)")
    }
}
