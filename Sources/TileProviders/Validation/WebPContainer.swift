/// WebP's RIFF container (RFC 9649 §2): "RIFF", the size of what follows, "WEBP", then chunks of
/// a FourCC, a little-endian size and the data (padded to an even length), ending with the file.
enum WebPContainer {
    static func defect(in data: [UInt8]) -> TileDefect? {
        let announced = Int(data.littleEndian32(at: 4))
        guard announced + 8 == data.count else {
            return TileDefect("the WebP's RIFF size says \(announced + 8) bytes, the file has \(data.count)")
        }
        var offset = 12
        var chunks = 0
        while offset + 8 <= data.count {
            let size = Int(data.littleEndian32(at: offset + 4))
            let end = offset + 8 + size + (size & 1)
            guard end <= data.count || (size & 1 == 1 && offset + 8 + size == data.count) else {
                return TileDefect("the WebP is cut short in a chunk at byte \(offset)")
            }
            chunks += 1
            offset = min(end, data.count)
        }
        guard offset == data.count, chunks > 0 else { return TileDefect("the WebP's chunks do not fill its file") }
        return nil
    }
}
