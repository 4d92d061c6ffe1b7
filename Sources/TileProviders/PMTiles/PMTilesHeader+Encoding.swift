import TileGeometry

extension PMTilesHeader {
    /// What a writer knows about the archive it lays out, for the 127-byte header (spec §3).
    struct Fields {
        var rootDirectory: Section
        var metadata: Section
        var leafDirectories: Section
        var tileData: Section
        var addressedTiles: UInt64
        var tileEntries: UInt64
        var tileContents: UInt64
        var tileCompression: PMTilesCompression
        var tileType: PMTilesTileType
        var minZoom: Int
        var maxZoom: Int
        var bounds: GeoBounds
        var centerZoom: Int
        var centerLongitude: Double
        var centerLatitude: Double
    }

    /// The header bytes: clustered, gzip internal compression, little-endian integers,
    /// positions as int32 × 10⁷ degrees.
    static func encoded(_ fields: Fields) -> [UInt8] {
        var out = magic + [version]
        func u64(_ value: UInt64) { for shift in 0 ..< 8 { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt64(shift)))) } }
        func degrees(_ value: Double) {
            let raw = UInt32(bitPattern: Int32((value * 10_000_000).rounded()))
            for shift in 0 ..< 4 { out.append(UInt8(truncatingIfNeeded: raw >> (8 * UInt32(shift)))) }
        }
        for section in [fields.rootDirectory, fields.metadata, fields.leafDirectories, fields.tileData] {
            u64(section.offset)
            u64(section.length)
        }
        u64(fields.addressedTiles)
        u64(fields.tileEntries)
        u64(fields.tileContents)
        out += [1, PMTilesCompression.gzip.rawValue, fields.tileCompression.rawValue, fields.tileType.rawValue,
                UInt8(fields.minZoom), UInt8(fields.maxZoom)]
        degrees(fields.bounds.west)
        degrees(fields.bounds.south)
        degrees(fields.bounds.east)
        degrees(fields.bounds.north)
        out.append(UInt8(fields.centerZoom))
        degrees(fields.centerLongitude)
        degrees(fields.centerLatitude)
        return out
    }
}
