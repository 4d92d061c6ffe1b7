import Foundation
@testable import TileProviders
import TileGeometry

/// Builds MBTiles files for tests in a fresh temporary folder, removed when the fixture is released.
final class MBTilesFixture: Sendable {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "mbtiles-tests-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(atPath: folder) }

    /// A path inside the folder.
    func path(_ name: String) -> String { folder + "/" + name }

    /// Distinct bytes for each tile (a PNG signature, then the coordinate and a tag, then filler).
    static func bytes(for tile: TileCoordinate, tag: UInt8 = 0, length: Int = 300) -> [UInt8] {
        var data: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        data += [UInt8(tile.z), UInt8(truncatingIfNeeded: tile.x), UInt8(truncatingIfNeeded: tile.y), tag]
        while data.count < length { data.append(UInt8(truncatingIfNeeded: data.count &* 31 &+ tile.x &+ tile.y)) }
        return data
    }

    /// Every tile of zooms `zooms`.
    static func pyramid(_ zooms: ClosedRange<Int>) -> [TileCoordinate] {
        zooms.flatMap { z in
            (0 ..< (1 << z)).flatMap { x in (0 ..< (1 << z)).map { y in TileCoordinate(z: z, x: x, y: y) } }
        }
    }

    /// Writes an MBTiles file at `name` holding `tiles` (bytes from `bytes(for:tag:length:)`) and `metadata`.
    @discardableResult
    func write(
        _ name: String, tiles: [TileCoordinate], tag: UInt8 = 0, length: Int = 300,
        metadata: [String: String] = ["name": "test"]
    ) throws -> String {
        let file = path(name)
        let writer = try MBTilesWriter(path: file, batchSize: 16)
        for (key, value) in metadata { try writer.setMetadata(key, value) }
        for tile in tiles { try writer.write(tile: tile, data: Self.bytes(for: tile, tag: tag, length: length)) }
        try writer.finish()
        return file
    }

    /// The tables of a deduplicating layout: `tiles` a view over `map` and `images` (fill them with INSERTs).
    static let deduplicatingLayout = """
        CREATE TABLE metadata (name TEXT, value TEXT);
        CREATE TABLE map (zoom_level INTEGER, tile_column INTEGER, tile_row INTEGER, tile_id TEXT);
        CREATE TABLE images (tile_id TEXT, tile_data BLOB);
        CREATE VIEW tiles AS SELECT zoom_level, tile_column, tile_row, tile_data
            FROM map JOIN images ON map.tile_id = images.tile_id;
        """

    /// Runs SQL on `file` (created if missing) through the module's own connection.
    func execute(_ sql: String, on file: String) throws {
        let connection = try SQLiteConnection(path: file, mode: .readWriteCreate)
        try connection.execute(sql)
    }

    /// The `sqlite3` command-line tool, if installed.
    static let sqlite3Path: String? = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"]
        .first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A missing `sqlite3` tool: a failure that names its package, never a skip.
    struct SQLite3Missing: Error, CustomStringConvertible {
        var description: String { "the sqlite3 command-line tool is not installed (apt-get install sqlite3; scripts/setup.sh installs it)" }
    }

    /// The output of `sqlite3 file command…` (SQL or dot-commands, run in order).
    static func sqlite3(_ file: String, _ commands: String...) throws -> String {
        guard let sqlite3Path else { throw SQLite3Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: sqlite3Path)
        process.arguments = [file] + commands
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: output, as: UTF8.self)
    }
}
