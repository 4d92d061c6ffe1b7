import Foundation
import TileGeometry

/// Where every tile of an archive being written goes: tile data in tile-id order (each content
/// once, at its first id), and directory entries with run lengths (spec §4: consecutive ids
/// sharing one content make one entry).
struct PMTilesArchivePlan {
    /// Directory entries in tile-id order (offsets from the tile-data section).
    var entries: [PMTilesDirectory.Entry] = []
    /// Indices of the contents in the order they are written.
    var order: [Int] = []
    var addressedTiles: UInt64 = 0
    var dataLength: UInt64 = 0
    var minZoom = PMTilesTileID.maxZoom
    var maxZoom = 0

    init(tiles: [UInt64: Int], contents: [PMTilesScratchFile.Blob]) {
        var offsets: [Int: UInt64] = [:]
        for id in tiles.keys.sorted() {
            let index = tiles[id]!
            let offset: UInt64
            if let known = offsets[index] {
                offset = known
            } else {
                offset = dataLength
                offsets[index] = offset
                order.append(index)
                dataLength += UInt64(contents[index].length)
            }
            if let last = entries.last, last.tileID + UInt64(last.runLength) == id, last.offset == offset {
                entries[entries.count - 1].runLength += 1
            } else {
                entries.append(.init(tileID: id, offset: offset, length: contents[index].length, runLength: 1))
            }
            addressedTiles += 1
            let zoom = PMTilesTileID.coordinate(of: id).zoom
            minZoom = min(minZoom, zoom)
            maxZoom = max(maxZoom, zoom)
        }
    }

    /// Header fields for sections laid out one after another from byte 127; bounds and center
    /// from the `bounds` and `center` metadata (MBTiles syntax) when present, else the world.
    func headerFields(metadata: [(String, String)], root: Int, json: Int, leaves: Int,
                      tileType: PMTilesTileType) -> PMTilesHeader.Fields {
        func numbers(_ key: String) -> [Double]? {
            metadata.last(where: { $0.0 == key }).map { $0.1.split(separator: ",").compactMap { Double($0.trimmingCharacters(in: .whitespaces)) } }
        }
        var bounds = WebMercator.worldBounds
        if let b = numbers("bounds"), b.count == 4 { bounds = GeoBounds(west: b[0], south: b[1], east: b[2], north: b[3]) }
        var center = [(bounds.west + bounds.east) / 2, (bounds.south + bounds.north) / 2, Double(minZoom)]
        if let c = numbers("center"), c.count == 3 { center = c }
        let rootSection = PMTilesHeader.Section(offset: UInt64(PMTilesHeader.size), length: UInt64(root))
        let jsonSection = PMTilesHeader.Section(offset: rootSection.offset + rootSection.length, length: UInt64(json))
        let leafSection = PMTilesHeader.Section(offset: jsonSection.offset + jsonSection.length, length: UInt64(leaves))
        let dataSection = PMTilesHeader.Section(offset: leafSection.offset + leafSection.length, length: dataLength)
        return .init(rootDirectory: rootSection, metadata: jsonSection, leafDirectories: leafSection, tileData: dataSection,
                     addressedTiles: addressedTiles, tileEntries: UInt64(entries.count), tileContents: UInt64(order.count),
                     tileCompression: tileType == .mvt ? .gzip : .none, tileType: tileType,
                     minZoom: minZoom, maxZoom: maxZoom, bounds: bounds,
                     centerZoom: min(max(Int(center[2]), minZoom), maxZoom), centerLongitude: center[0], centerLatitude: center[1])
    }
}
