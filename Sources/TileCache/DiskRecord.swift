/// One stored answer of the disk tier: a tile's bytes or "no tile here", when it was stored
/// and the source's modification time.
///
/// On disk it is a fixed header then the body (all integers little-endian):
/// `magic "TLC1"` · kind (1 byte) · 3 zero bytes · storedAt (Int64) · lastModified (Int64,
/// `Int64.min` = unknown) · body length (UInt64) · CRC-32 of everything before it and of the body.
/// A file whose size, magic, kind or checksum does not match is corrupt.
public struct DiskRecord: Sendable, Equatable {
    /// What the record holds.
    public enum Kind: UInt8, Sendable {
        /// "No tile here" (a permanent answer); the body is empty.
        case noTile = 0
        /// A tile's bytes.
        case tile = 1
    }

    /// Tile or no-tile.
    public var kind: Kind
    /// The tile's bytes (empty for `.noTile`).
    public var body: [UInt8]
    /// Seconds since 1970 when it was stored.
    public var storedAt: Int
    /// The source's modification time, seconds since 1970, where known.
    public var lastModified: Int?

    /// A record.
    public init(kind: Kind, body: [UInt8] = [], storedAt: Int, lastModified: Int? = nil) {
        self.kind = kind
        self.body = body
        self.storedAt = storedAt
        self.lastModified = lastModified
    }

    /// "TLC1": TileLayer Cache, format 1.
    static let magic: [UInt8] = [0x54, 0x4C, 0x43, 0x31]
    /// Bytes before the body.
    static let headerSize = 36
    private static let unknownTime = Int64.min

    /// The whole file: header and body.
    public func encoded() -> [UInt8] {
        var bytes = Self.magic
        bytes.reserveCapacity(Self.headerSize + body.count)
        bytes += [kind.rawValue, 0, 0, 0]
        Self.append(Int64(storedAt), to: &bytes)
        Self.append(lastModified.map(Int64.init) ?? Self.unknownTime, to: &bytes)
        Self.append(UInt64(body.count), to: &bytes)
        let crc = CRC32.checksum(body, continuing: CRC32.checksum(bytes))
        Self.append(crc, to: &bytes)
        bytes += body
        return bytes
    }

    /// The record in `bytes`, or why they are not one.
    public static func decode(_ bytes: [UInt8]) -> Result<DiskRecord, DecodeProblem> {
        guard bytes.count >= headerSize else { return .failure(.init("\(bytes.count) bytes, shorter than the header")) }
        guard Array(bytes[0 ..< 4]) == magic else { return .failure(.init("bad magic")) }
        guard let kind = Kind(rawValue: bytes[4]) else { return .failure(.init("unknown kind \(bytes[4])")) }
        let storedAt = Int64(bitPattern: word(bytes, at: 8))
        let modified = Int64(bitPattern: word(bytes, at: 16))
        let length = word(bytes, at: 24)
        guard length == UInt64(bytes.count - headerSize) else {
            return .failure(.init("header says \(length) body bytes, file has \(bytes.count - headerSize)"))
        }
        let stored = UInt32(truncatingIfNeeded: word(bytes, at: 32, size: 4))
        let computed = bytes.withUnsafeBytes { raw in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[headerSize...]),
                           continuing: CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[0 ..< 32])))
        }
        guard stored == computed else { return .failure(.init("checksum mismatch")) }
        return .success(DiskRecord(kind: kind, body: Array(bytes[headerSize...]), storedAt: Int(storedAt),
                                   lastModified: modified == unknownTime ? nil : Int(modified)))
    }

    /// Why bytes are not a record.
    public struct DecodeProblem: Error {
        /// What did not match.
        public let reason: String
        init(_ reason: String) { self.reason = reason }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func word(_ bytes: [UInt8], at offset: Int, size: Int = 8) -> UInt64 {
        (0 ..< size).reduce(UInt64(0)) { value, index in value | UInt64(bytes[offset + index]) << (8 * index) }
    }
}
