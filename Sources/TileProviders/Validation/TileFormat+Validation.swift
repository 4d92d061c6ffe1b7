extension TileFormat {
    /// Why `data` is not one whole tile of this format, nil when it is: a walk of its structure,
    /// not a decode (a PNG's chunks with their lengths and CRCs up to `IEND`; a JPEG's markers up
    /// to its scan and its end marker; a WebP's RIFF size and chunks; an MVT's protobuf fields,
    /// after gzip when compressed). What a tile cut short, or noise after a good start, fails.
    public func defect(in data: [UInt8]) -> TileDefect? {
        guard matches(data) else { return TileDefect("it does not start as a \(displayName) does") }
        switch self {
        case .png: return PNGChunks.defect(in: data)
        case .jpg: return JPEGMarkers.defect(in: data)
        case .webp: return WebPContainer.defect(in: data)
        case .pbf:
            guard Self.isGzip(data) else { return VectorTileMessage.defect(in: data) }
            do {
                return VectorTileMessage.defect(in: try Gzip.decompress(data))
            } catch {
                return TileDefect("its gzip stream is corrupt: \(error.reason)")
            }
        }
    }
}

/// What is wrong with bytes that are not a whole tile (`TileFormat.defect(in:)`).
public struct TileDefect: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong, in a few words ("the PNG ends before its IEND chunk").
    public let reason: String

    init(_ reason: String) { self.reason = reason }

    public var description: String { reason }
}

/// Reads big- and little-endian integers from a byte array, bounds checked by the caller.
extension Array where Element == UInt8 {
    func bigEndian32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) << 24 | UInt32(self[offset + 1]) << 16 | UInt32(self[offset + 2]) << 8 | UInt32(self[offset + 3])
    }

    func bigEndian16(at offset: Int) -> Int { Int(self[offset]) << 8 | Int(self[offset + 1]) }

    func littleEndian32(at offset: Int) -> UInt32 {
        UInt32(self[offset]) | UInt32(self[offset + 1]) << 8 | UInt32(self[offset + 2]) << 16 | UInt32(self[offset + 3]) << 24
    }
}
