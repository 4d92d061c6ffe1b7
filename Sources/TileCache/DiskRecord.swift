import Hashing

/// One stored answer of the disk tier (and value of the Redis tier): a tile's bytes or "no tile
/// here", when it was stored and the source's modification time.
///
/// Stored as the body, then a trailer of 48 bytes (integers little-endian):
/// `magic "TLC2"` · kind (1 byte) · 3 zero bytes · storedAt (Int64) · lastModified (Int64,
/// `Int64.min` = unknown) · body length (UInt64) · XXH64 of the body · XXH64 of the trailer
/// before it. The body first, so that the record read back keeps the bytes read, less the
/// trailer, as its body, without a copy; the body's XXH64 is its ETag's hash, so one pass checks
/// it and labels it. Bytes whose size, magic, kind or hashes do not match are damaged; a record
/// of the first format (magic "TLC1" at its start, a CRC-32) is outdated.
public struct DiskRecord: Sendable, Equatable {
    /// What the record holds.
    public enum Kind: UInt8, Sendable {
        /// "No tile here" (a permanent answer); the body is empty.
        case noTile = 0
        /// A tile's bytes.
        case tile = 1
    }

    /// Tile or no-tile.
    public let kind: Kind
    /// The tile's bytes (empty for `.noTile`).
    public let body: [UInt8]
    /// Seconds since 1970 when it was stored.
    public let storedAt: Int
    /// The source's modification time, seconds since 1970, where known.
    public let lastModified: Int?
    /// XXH64 of `body`: its ETag's hash.
    public let bodyHash: UInt64

    /// A record. `bodyHash`: the XXH64 of the body when the caller made it already (from the
    /// bytes it served: a copy read back that differs from them then fails the record's check).
    public init(kind: Kind, body: [UInt8] = [], storedAt: Int, lastModified: Int? = nil, bodyHash: UInt64? = nil) {
        self.kind = kind
        self.body = body
        self.storedAt = storedAt
        self.lastModified = lastModified
        self.bodyHash = bodyHash ?? ContentHash.xxh64(body)
    }

    /// "TLC2": TileLayer Cache, format 2.
    static let magic: [UInt8] = [0x54, 0x4C, 0x43, 0x32]
    /// "TLC1", the first format's magic, at the start of its records.
    static let firstFormatMagic: [UInt8] = [0x54, 0x4C, 0x43, 0x31]
    /// Bytes after the body.
    static let trailerSize = 48
    private static let unknownTime = Int64.min

    /// The whole record: body and trailer.
    public func encoded() -> [UInt8] {
        var bytes = body
        bytes.reserveCapacity(body.count + Self.trailerSize)
        bytes += Self.magic
        bytes += [kind.rawValue, 0, 0, 0]
        Self.append(Int64(storedAt), to: &bytes)
        Self.append(lastModified.map(Int64.init) ?? Self.unknownTime, to: &bytes)
        Self.append(UInt64(body.count), to: &bytes)
        Self.append(bodyHash, to: &bytes)
        let trailerHash = bytes.withUnsafeBytes { ContentHash.xxh64(UnsafeRawBufferPointer(rebasing: $0[body.count...])) }
        Self.append(trailerHash, to: &bytes)
        return bytes
    }

    /// The record in `bytes`, or why they are not one.
    public static func decode(_ bytes: consuming [UInt8]) -> Result<DiskRecord, DecodeProblem> {
        guard bytes.count >= trailerSize else {
            return .failure(bytes.starts(with: firstFormatMagic) ? .outdated : .damaged("\(bytes.count) bytes, shorter than the trailer"))
        }
        let start = bytes.count - trailerSize
        guard bytes[start ..< start + 4].elementsEqual(magic) else {
            return .failure(bytes.starts(with: firstFormatMagic) ? .outdated : .damaged("bad magic"))
        }
        let (trailerHash, bodyHash) = bytes.withUnsafeBytes { raw in
            (ContentHash.xxh64(UnsafeRawBufferPointer(rebasing: raw[start ..< start + 40])),
             ContentHash.xxh64(UnsafeRawBufferPointer(rebasing: raw[..<start])))
        }
        guard trailerHash == word(bytes, at: start + 40) else { return .failure(.damaged("trailer checksum mismatch")) }
        guard let kind = Kind(rawValue: bytes[start + 4]) else { return .failure(.damaged("unknown kind \(bytes[start + 4])")) }
        let length = word(bytes, at: start + 24)
        guard length == UInt64(start) else { return .failure(.damaged("trailer says \(length) body bytes, record has \(start)")) }
        guard bodyHash == word(bytes, at: start + 32) else { return .failure(.damaged("body checksum mismatch")) }
        let storedAt = Int64(bitPattern: word(bytes, at: start + 8))
        let modified = Int64(bitPattern: word(bytes, at: start + 16))
        bytes.removeLast(trailerSize)
        return .success(DiskRecord(kind: kind, body: bytes, storedAt: Int(storedAt),
                                   lastModified: modified == unknownTime ? nil : Int(modified), bodyHash: bodyHash))
    }

    /// Why bytes are not a record.
    public enum DecodeProblem: Error, Equatable {
        /// Cut short or changed: `reason` says what did not match.
        case damaged(String)
        /// A record of the first format, which this one no longer reads: not damaged.
        case outdated

        /// What did not match.
        public var reason: String {
            switch self {
            case .damaged(let reason): reason
            case .outdated: "a record of the first format (TLC1)"
            }
        }
    }

    private static func append<T: FixedWidthInteger>(_ value: T, to bytes: inout [UInt8]) {
        withUnsafeBytes(of: value.littleEndian) { bytes += $0 }
    }

    private static func word(_ bytes: [UInt8], at offset: Int) -> UInt64 {
        bytes.withUnsafeBytes { UInt64(littleEndian: $0.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) }
    }
}
