internal import CZlib

/// PNG's chunk structure (PNG spec §5.3): after the signature, chunks of a 4-byte length, a
/// 4-byte type, the data and a CRC-32 of type and data; `IHDR` first, `IEND` last, nothing after.
enum PNGChunks {
    static func defect(in data: [UInt8]) -> TileDefect? {
        var offset = TileFormat.pngSignature.count
        var first = true
        while offset + 12 <= data.count {
            let length = Int(data.bigEndian32(at: offset))
            guard length <= Int(Int32.max), offset + 12 + length <= data.count else {
                return TileDefect("the PNG is cut short in a chunk (\(length) bytes announced at byte \(offset))")
            }
            let type = String(decoding: data[offset + 4 ..< offset + 8], as: UTF8.self)
            if first && type != "IHDR" { return TileDefect("the PNG's first chunk is \(type), not IHDR") }
            let crc = data.withUnsafeBufferPointer { buffer in
                crc32(0, buffer.baseAddress! + offset + 4, UInt32(4 + length))
            }
            guard crc == UInt(data.bigEndian32(at: offset + 8 + length)) else {
                return TileDefect("the PNG's \(type) chunk at byte \(offset) fails its CRC")
            }
            offset += 12 + length
            first = false
            if type == "IEND" {
                return offset == data.count ? nil : TileDefect("the PNG has \(data.count - offset) bytes after IEND")
            }
        }
        return TileDefect("the PNG ends before its IEND chunk")
    }
}
