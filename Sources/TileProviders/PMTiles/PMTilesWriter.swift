#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import TileGeometry

/// Writes a new PMTiles v3 archive (for `seed --to out.pmtiles`), as `MBTilesWriter` writes MBTiles.
///
/// Tiles may come in any order: each distinct content is appended once to a scratch file beside
/// `path` (identical bytes are stored once, checked byte for byte); `finish()` lays the archive
/// out clustered — header, root directory, JSON metadata, leaf directories, then tile data in
/// tile-id order — with run lengths for consecutive ids sharing one content and gzip directories,
/// syncs it and renames it over `path` in one step. Use from one thread at a time.
public final class PMTilesWriter {
    /// The file made by `finish()`.
    public let path: String
    /// Tiles written so far (a tile written twice counts twice).
    public private(set) var tileCount = 0

    private let scratch: PMTilesScratchFile
    /// Tile id → index into `contents`.
    private var tiles: [UInt64: Int] = [:]
    /// Distinct tile contents in the scratch file.
    private var contents: [PMTilesScratchFile.Blob] = []
    /// Content hash → indices of `contents` with that hash.
    private var byHash: [Int: [Int]] = [:]
    private var metadata: [(String, String)] = []
    private var finished = false
    /// Largest root directory before leaves are made (less than the spec's 16 KiB only in tests).
    private let maxRootBytes: Int

    /// Creates the scratch file; `path` itself is untouched until `finish()`.
    public convenience init(path: String) throws(TileProviderError) {
        try self.init(path: path, maxRootBytes: PMTilesDirectoryLayout.maxRootBytes)
    }

    /// A writer whose root directory stays under `maxRootBytes` (tests force leaves with it).
    init(path: String, maxRootBytes: Int) throws(TileProviderError) {
        self.path = path
        self.maxRootBytes = maxRootBytes
        scratch = try PMTilesScratchFile(path: "\(path).\(getpid()).\(UInt64.random(in: 0 ... .max)).tiles.tmp")
    }

    deinit { if !finished { scratch.remove() } }

    /// Sets a metadata value (MBTiles-style keys: `name`, `format`, `bounds`, `center`, `minzoom`,
    /// `maxzoom`, `attribution`, `description`…). `bounds` and `center` also fill the header.
    public func setMetadata(_ key: String, _ value: String) throws(TileProviderError) {
        metadata.removeAll { $0.0 == key }
        metadata.append((key, value))
    }

    /// Stores `data` as the tile at `tile` (XYZ), replacing any earlier one.
    public func write(tile: TileCoordinate, data: [UInt8]) throws(TileProviderError) {
        guard tile.normalized() == tile, let id = PMTilesTileID.id(zoom: tile.z, x: tile.x, y: tile.y) else {
            throw .invalidConfiguration("tile \(tile) is outside the tile grid; cannot write it to \(path)")
        }
        guard !data.isEmpty, let length = UInt32(exactly: data.count) else {
            throw .invalidConfiguration("tile \(tile) has \(data.count) bytes; cannot write it to \(path)")
        }
        let hash = data.hashValue
        for index in byHash[hash] ?? [] where contents[index].length == length {
            if try scratch.read(contents[index]) == data {
                tiles[id] = index
                tileCount += 1
                return
            }
        }
        contents.append(try scratch.append(data))
        byHash[hash, default: []].append(contents.count - 1)
        tiles[id] = contents.count - 1
        tileCount += 1
    }

    /// Lays the archive out, syncs and renames it to `path`. The writer cannot be used afterwards.
    public func finish() throws(TileProviderError) {
        precondition(!finished, "PMTilesWriter for \(path) used after finish() or cancel()")
        finished = true
        defer { scratch.remove() }
        guard !tiles.isEmpty else { throw .invalidConfiguration("no tiles to write to \(path)") }
        let plan = PMTilesArchivePlan(tiles: tiles, contents: contents)
        let layout = PMTilesDirectoryLayout(entries: plan.entries, maxRootBytes: maxRootBytes)
        let json = Deflate.gzip(Array(PMTilesWriter.json(metadata, defaultName: (path as NSString).lastPathComponent).utf8))
        let header = PMTilesHeader.encoded(plan.headerFields(metadata: metadata, root: layout.root.count,
                                                             json: json.count, leaves: layout.leaves.count,
                                                             tileType: PMTilesWriter.tileType(metadata)))
        let output = try PMTilesScratchFile(path: "\(path).\(getpid()).\(UInt64.random(in: 0 ... .max)).tmp")
        do throws(TileProviderError) {
            for part in [header, layout.root, json, layout.leaves] { _ = try output.append(part) }
            for index in plan.order { _ = try output.append(try scratch.read(contents[index])) }
            try output.sync()
        } catch {
            output.remove()
            throw error
        }
        guard rename(output.path, path) == 0 else {
            let code = errno
            output.remove()
            throw .unwritable(path: path, errno: code)
        }
        output.close()
    }

    /// Abandons the archive: deletes the scratch file; `path` is untouched.
    public func cancel() {
        finished = true
        scratch.remove()
    }

    /// PMTiles tile type for the `format` metadata (png when unset).
    static func tileType(_ metadata: [(String, String)]) -> PMTilesTileType {
        switch metadata.last(where: { $0.0 == "format" })?.1.lowercased() ?? "png" {
        case "png": .png
        case "jpg", "jpeg": .jpeg
        case "webp": .webp
        case "pbf", "mvt": .mvt
        default: .unknown
        }
    }

    /// The JSON metadata (spec §5): every key but those the header holds, as strings; `name` defaults.
    static func json(_ metadata: [(String, String)], defaultName: String) -> String {
        var object: [String: String] = ["name": defaultName]
        for (key, value) in metadata where !["bounds", "center", "minzoom", "maxzoom"].contains(key) {
            object[key] = value
        }
        let data = (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys])) ?? Data("{}".utf8)
        return String(decoding: data, as: UTF8.self)
    }
}
