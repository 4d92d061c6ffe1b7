import CPNGCodec
import TilePNG

extension PNGFixture {
    /// Bytes per packed row: samples MSB-first, 16-bit big endian, padded to a byte.
    var rowBytes: Int { (width * channels * bitDepth + 7) / 8 }

    /// The packed sample rows libpng writes verbatim.
    var packedRows: [UInt8] {
        var bytes = [UInt8](repeating: 0, count: rowBytes * height)
        for y in 0..<height {
            var bitOffset = 0
            for x in 0..<width {
                for channel in 0..<channels {
                    let value = sample(x: x, y: y, channel: channel)
                    let byte = y * rowBytes + bitOffset / 8
                    if bitDepth == 16 {
                        bytes[byte] = UInt8(value >> 8)
                        bytes[byte + 1] = UInt8(value & 0xff)
                    } else {
                        bytes[byte] |= UInt8(value << (8 - bitDepth - bitOffset % 8))
                    }
                    bitOffset += bitDepth
                }
            }
        }
        return bytes
    }

    /// The fixture as a PNG file.
    func encoded() throws -> [UInt8] {
        var params = cpng_encode_params()
        params.width = UInt32(width)
        params.height = UInt32(height)
        params.color_type = colorType
        params.bit_depth = Int32(bitDepth)
        params.interlace = interlaced ? 1 : 0
        params.compression_level = 6
        params.filters = Int32(CPNG_FILTER_ALL)
        let palette = (0..<paletteEntries).flatMap { paletteColor($0) }
        let alpha = paletteAlpha
        if withTRNS && !isPalette {
            let key = transparentSamples.map { UInt16($0) }
            params.has_trns_color = 1
            params.trns_gray = key[0]
            if key.count >= 3 { (params.trns_red, params.trns_green, params.trns_blue) = (key[0], key[1], key[2]) }
        }
        let rows = packedRows
        var buffer = cpng_buffer()
        var status = cpng_status()
        let code = palette.withUnsafeBufferPointer { paletteBytes in
            alpha.withUnsafeBufferPointer { alphaBytes in
                rows.withUnsafeBufferPointer { rowBytes in
                    if isPalette {
                        params.palette = paletteBytes.baseAddress
                        params.palette_entries = Int32(paletteEntries)
                        if withTRNS {
                            params.trns_alpha = alphaBytes.baseAddress
                            params.trns_alpha_entries = Int32(alpha.count)
                        }
                    }
                    return cpng_encode(rowBytes.baseAddress, self.rowBytes, &params, &buffer, &status)
                }
            }
        }
        defer { cpng_buffer_free(&buffer) }
        guard code == 0, let data = buffer.data else { throw FixtureError.encodeFailed(code: code) }
        return Array(UnsafeBufferPointer(start: data, count: buffer.size))
    }
}

enum FixtureError: Error {
    case encodeFailed(code: Int32)
}

/// PNG chunk helpers for hand-made hostile files.
enum PNGBytes {
    static let signature: [UInt8] = [137, 80, 78, 71, 13, 10, 26, 10]

    /// CRC-32 as in PNG spec Annex D (ISO 3309), over chunk type and data.
    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xffff_ffff
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = crc & 1 != 0 ? (crc >> 1) ^ 0xedb8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8(value >> 16 & 0xff), UInt8(value >> 8 & 0xff), UInt8(value & 0xff)]
    }

    /// length + type + data + CRC.
    static func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
        let body = Array(type.utf8) + data
        return be32(UInt32(data.count)) + body + be32(crc32(body))
    }

    /// An IHDR (8-bit RGBA) with a valid CRC claiming `width`×`height`.
    static func header(width: UInt32, height: UInt32) -> [UInt8] {
        signature + chunk("IHDR", be32(width) + be32(height) + [8, 6, 0, 0, 0])
    }
}
