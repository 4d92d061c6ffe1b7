/// A Mapbox Vector Tile's protobuf structure (MVT 2.1 §4, protobuf encoding): fields of a varint
/// key (field number and wire type) and a value whose length fits; the tile's `layers` (field 3)
/// are messages walked the same way. An empty tile is a tile with no layers.
enum VectorTileMessage {
    static func defect(in data: [UInt8]) -> TileDefect? {
        walk(data, from: 0, to: data.count, depth: 0)
    }

    /// Wire types (protobuf encoding): varint, 64-bit, length-delimited, 32-bit.
    private enum WireType: UInt64 { case varint = 0, fixed64 = 1, delimited = 2, fixed32 = 5 }

    private static func walk(_ data: [UInt8], from start: Int, to end: Int, depth: Int) -> TileDefect? {
        var offset = start
        while offset < end {
            guard let (key, afterKey) = varint(data, at: offset, end: end), key >> 3 > 0,
                  let type = WireType(rawValue: key & 7)
            else { return TileDefect("the vector tile has a bad protobuf field key at byte \(offset)") }
            offset = afterKey
            switch type {
            case .varint:
                guard let (_, next) = varint(data, at: offset, end: end) else { return cut(offset) }
                offset = next
            case .fixed64, .fixed32:
                offset += type == .fixed64 ? 8 : 4
                if offset > end { return cut(offset) }
            case .delimited:
                guard let (length, next) = varint(data, at: offset, end: end), length <= UInt64(end - next) else {
                    return cut(offset)
                }
                let fieldEnd = next + Int(length)
                // The tile's layers (field 3) are messages: walked one level down.
                if depth == 0, key >> 3 == 3, let defect = walk(data, from: next, to: fieldEnd, depth: 1) { return defect }
                offset = fieldEnd
            }
        }
        return nil
    }

    private static func cut(_ offset: Int) -> TileDefect {
        TileDefect("the vector tile is cut short in a protobuf field at byte \(offset)")
    }

    /// The varint at `offset` and the offset after it; nil when it runs past `end` or 10 bytes.
    private static func varint(_ data: [UInt8], at offset: Int, end: Int) -> (UInt64, Int)? {
        var value: UInt64 = 0
        var index = offset
        for shift in stride(from: 0, to: 70, by: 7) {
            guard index < end else { return nil }
            let byte = data[index]
            value |= UInt64(byte & 0x7F) << UInt64(shift)
            index += 1
            if byte & 0x80 == 0 { return (value, index) }
        }
        return nil
    }
}
