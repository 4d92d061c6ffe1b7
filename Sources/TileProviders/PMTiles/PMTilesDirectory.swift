/// One decoded PMTiles v3 directory (spec §4): entries sorted by tile id, each either a run of
/// tiles sharing one blob of tile data or (run length 0) a pointer to a leaf directory.
public struct PMTilesDirectory: Sendable, Equatable {
    /// One entry.
    public struct Entry: Sendable, Equatable {
        /// The first tile id covered.
        public var tileID: UInt64
        /// Tile data: offset from the tile-data section; leaf: offset from the leaf section.
        public var offset: UInt64
        public var length: UInt32
        /// How many consecutive ids share these bytes; 0 for a leaf directory.
        public var runLength: UInt32

        /// An entry.
        public init(tileID: UInt64, offset: UInt64, length: UInt32, runLength: UInt32) {
            self.tileID = tileID
            self.offset = offset
            self.length = length
            self.runLength = runLength
        }
    }

    /// Entries in tile-id order.
    public var entries: [Entry]

    /// Where the answer for one tile id is.
    public enum Lookup: Sendable, Equatable {
        /// The tile's bytes.
        case tile(offset: UInt64, length: UInt32)
        /// Look in this leaf directory.
        case leaf(offset: UInt64, length: UInt32)
        /// No tile.
        case absent
    }

    /// The entry for `id`: the last with `tileID <= id` (spec §4.4).
    public func lookup(_ id: UInt64) -> Lookup {
        var (low, high) = (0, entries.count)
        while low < high {
            let middle = (low + high) / 2
            if entries[middle].tileID <= id { low = middle + 1 } else { high = middle }
        }
        guard low > 0 else { return .absent }
        let entry = entries[low - 1]
        if entry.runLength == 0 { return .leaf(offset: entry.offset, length: entry.length) }
        guard id - entry.tileID < UInt64(entry.runLength) else { return .absent }
        return .tile(offset: entry.offset, length: entry.length)
    }
}

extension PMTilesDirectory {
    /// Most entries a directory may claim (a corrupt count must not allocate gigabytes).
    static let maxEntries = 1 << 24

    /// Decodes uncompressed directory bytes: the entry count, then the tile ids (delta-encoded),
    /// run lengths, lengths and offsets as columns of varints (spec §4.3).
    init(decoding bytes: [UInt8]) throws(PMTilesFormatError) {
        var reader = PMTilesVarintReader(bytes)
        let count = try reader.next()
        guard count <= UInt64(Self.maxEntries), count <= UInt64(bytes.count) else {
            throw PMTilesFormatError("a directory claims \(count) entries in \(bytes.count) bytes")
        }
        var entries = [Entry](repeating: Entry(tileID: 0, offset: 0, length: 0, runLength: 0), count: Int(count))
        var lastID: UInt64 = 0
        for index in entries.indices {
            let (sum, overflow) = lastID.addingReportingOverflow(try reader.next())
            guard !overflow else { throw PMTilesFormatError("a directory's tile ids overflow") }
            lastID = sum
            entries[index].tileID = sum
        }
        for index in entries.indices { entries[index].runLength = try reader.next32() }
        for index in entries.indices { entries[index].length = try reader.next32() }
        for index in entries.indices {
            let value = try reader.next()
            // Spec §4.3: 0 means "right after the previous entry's bytes", else offset + 1.
            if value == 0, index > 0 {
                entries[index].offset = entries[index - 1].offset &+ UInt64(entries[index - 1].length)
            } else {
                guard value > 0 else { throw PMTilesFormatError("the first directory entry has offset 0") }
                entries[index].offset = value - 1
            }
        }
        self.entries = entries
    }
}

/// Reads unsigned LEB128 varints (protobuf style) from a byte array.
struct PMTilesVarintReader {
    private let bytes: [UInt8]
    private var position = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    /// The next varint.
    mutating func next() throws(PMTilesFormatError) -> UInt64 {
        var value: UInt64 = 0
        var shift: UInt64 = 0
        while position < bytes.count {
            let byte = bytes[position]
            position += 1
            guard shift < 64 else { throw PMTilesFormatError("a varint is longer than 64 bits") }
            value |= UInt64(byte & 0x7F) << shift
            if byte & 0x80 == 0 { return value }
            shift += 7
        }
        throw PMTilesFormatError("a directory ends inside a varint")
    }

    /// The next varint, which must fit in 32 bits (run lengths and lengths).
    mutating func next32() throws(PMTilesFormatError) -> UInt32 {
        let value = try next()
        guard let small = UInt32(exactly: value) else { throw PMTilesFormatError("a length \(value) exceeds 32 bits") }
        return small
    }
}
