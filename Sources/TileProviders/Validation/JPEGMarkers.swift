/// JPEG's marker structure (ITU T.81 §B.1): SOI, marker segments with 2-byte lengths up to a
/// frame header (SOFn) and the start of a scan (SOS), the entropy-coded data, and EOI last.
enum JPEGMarkers {
    static func defect(in data: [UInt8]) -> TileDefect? {
        guard data.count >= 4, data[data.count - 2] == 0xFF, data[data.count - 1] == 0xD9 else {
            return TileDefect("the JPEG does not end with its EOI marker (FF D9)")
        }
        var offset = 2
        var sawFrame = false
        while offset + 4 <= data.count {
            guard data[offset] == 0xFF else { return TileDefect("the JPEG has no marker at byte \(offset)") }
            let marker = data[offset + 1]
            if marker == 0xFF { offset += 1; continue }  // fill bytes (§B.1.1.2)
            let length = data.bigEndian16(at: offset + 2)
            guard length >= 2, offset + 2 + length <= data.count else {
                return TileDefect("the JPEG is cut short in a marker segment at byte \(offset)")
            }
            if (0xC0 ... 0xCF).contains(marker) && ![0xC4, 0xC8, 0xCC].contains(marker) {
                guard length >= 8, data.bigEndian16(at: offset + 5) > 0, data.bigEndian16(at: offset + 7) > 0 else {
                    return TileDefect("the JPEG's frame header has no size")
                }
                sawFrame = true
            }
            if marker == 0xDA {
                return sawFrame ? nil : TileDefect("the JPEG starts a scan before its frame header")
            }
            offset += 2 + length
        }
        return TileDefect("the JPEG has no scan")
    }
}
