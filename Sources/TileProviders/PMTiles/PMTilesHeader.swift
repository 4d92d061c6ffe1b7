import TileGeometry

/// The fixed 127-byte header of a PMTiles v3 archive (spec §3): where the sections are, how
/// they are compressed, and what the tiles are.
public struct PMTilesHeader: Sendable, Equatable {
    /// Its size in bytes.
    public static let size = 127
    /// "PMTiles" followed by the version byte.
    static let magic = Array("PMTiles".utf8)
    /// The only version read.
    static let version: UInt8 = 3

    /// A byte range of the file.
    public struct Section: Sendable, Equatable {
        /// Offset from the start of the file.
        public var offset: UInt64
        /// Length in bytes.
        public var length: UInt64
    }

    public var rootDirectory: Section
    public var metadata: Section
    /// Leaf directories; leaf entries' offsets count from here.
    public var leafDirectories: Section
    /// Tile data; tile entries' offsets count from here.
    public var tileData: Section
    public var addressedTiles: UInt64
    public var tileEntries: UInt64
    public var tileContents: UInt64
    /// Whether tiles are stored in tile-id order.
    public var clustered: Bool
    /// Compression of the directories and metadata.
    public var internalCompression: PMTilesCompression
    /// Compression of every tile, passed through as stored.
    public var tileCompression: PMTilesCompression
    public var tileType: PMTilesTileType
    public var minZoom: Int
    public var maxZoom: Int
    /// Bounds in degrees (stored as int32 × 10⁷).
    public var bounds: GeoBounds
    public var centerZoom: Int
    public var centerLongitude: Double
    public var centerLatitude: Double

    /// Parses the first 127 bytes of an archive; `reason` in the error says what is wrong.
    init(_ bytes: [UInt8]) throws(PMTilesFormatError) {
        guard bytes.count >= Self.size else { throw PMTilesFormatError("the file is shorter than the 127-byte header") }
        guard Array(bytes[0 ..< 7]) == Self.magic else { throw PMTilesFormatError("no \"PMTiles\" magic number") }
        guard bytes[7] == Self.version else { throw PMTilesFormatError("version \(bytes[7]), not 3") }
        func u64(_ at: Int) -> UInt64 { (0 ..< 8).reduce(0) { $0 | UInt64(bytes[at + $1]) << (8 * UInt64($1)) } }
        func degrees(_ at: Int) -> Double {
            let raw = (0 ..< 4).reduce(UInt32(0)) { $0 | UInt32(bytes[at + $1]) << (8 * UInt32($1)) }
            return Double(Int32(bitPattern: raw)) / 10_000_000
        }
        rootDirectory = Section(offset: u64(8), length: u64(16))
        metadata = Section(offset: u64(24), length: u64(32))
        leafDirectories = Section(offset: u64(40), length: u64(48))
        tileData = Section(offset: u64(56), length: u64(64))
        addressedTiles = u64(72)
        tileEntries = u64(80)
        tileContents = u64(88)
        clustered = bytes[96] == 1
        internalCompression = PMTilesCompression(rawValue: bytes[97]) ?? .unknown
        tileCompression = PMTilesCompression(rawValue: bytes[98]) ?? .unknown
        tileType = PMTilesTileType(rawValue: bytes[99]) ?? .unknown
        minZoom = Int(bytes[100])
        maxZoom = Int(bytes[101])
        bounds = GeoBounds(west: degrees(102), south: degrees(106), east: degrees(110), north: degrees(114))
        centerZoom = Int(bytes[118])
        centerLongitude = degrees(119)
        centerLatitude = degrees(123)
        guard minZoom <= maxZoom, maxZoom <= PMTilesTileID.maxZoom else {
            throw PMTilesFormatError("zoom range \(minZoom)–\(maxZoom) is invalid")
        }
        guard rootDirectory.length > 0 else { throw PMTilesFormatError("the root directory is empty") }
    }
}

/// PMTiles v3 compression codes.
public enum PMTilesCompression: UInt8, Sendable {
    case unknown = 0, none = 1, gzip = 2, brotli = 3, zstd = 4
}

/// PMTiles v3 tile type codes.
public enum PMTilesTileType: UInt8, Sendable, CustomStringConvertible {
    case unknown = 0, mvt = 1, png = 2, jpeg = 3, webp = 4, avif = 5

    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .mvt: return "mvt"
        case .png: return "png"
        case .jpeg: return "jpeg"
        case .webp: return "webp"
        case .avif: return "avif"
        }
    }
}

/// What is wrong with an archive's bytes; the caller turns it into a `TileProviderError`
/// naming the file or the tile.
struct PMTilesFormatError: Error {
    var reason: String
    init(_ reason: String) { self.reason = reason }
}
