import CPNGCodec
import Foundation
import Testing
import TilePNG

/// Damaged and malicious files must end in the right `PNGError`, quickly and
/// without allocating for what the header claims.
@Suite("hostile PNG input", .timeLimit(.minutes(1)))
struct HostilePNGTests {
    static func worldTile() throws -> [UInt8] {
        try [UInt8](Data(contentsOf: URL(fileURLWithPath: PNGDecoderTests.worldTile)))
    }

    @Test(arguments: [0.5, 0.9, 0.999])
    func truncatedFileIsTruncated(_ fraction: Double) throws {
        let data = try Self.worldTile()
        let cut = Array(data.prefix(Int(Double(data.count) * fraction)))
        #expect(throws: PNGError.truncated) { try PNGDecoder.decode(cut) }
    }

    @Test func fileEndingInsideIHDRIsTruncated() throws {
        let data = try Self.worldTile()
        #expect(throws: PNGError.truncated) { try PNGDecoder.decode(Array(data.prefix(20))) }
    }

    @Test func flippedIHDRCRCByteIsCorrupt() throws {
        var data = try Self.worldTile()
        data[32] ^= 0x01 // last byte of the IHDR CRC (8 signature + 8 + 13 data + 4 CRC)
        try expectCorrupt(data, mentioning: "CRC")
    }

    @Test func flippedIDATCRCByteIsCorrupt() throws {
        var data = try Self.worldTile()
        let idat = try #require(Self.chunkOffset("IDAT", in: data))
        let length = Int(data[idat]) << 24 | Int(data[idat + 1]) << 16 | Int(data[idat + 2]) << 8 | Int(data[idat + 3])
        data[idat + 8 + length] ^= 0x80 // first CRC byte
        try expectCorrupt(data, mentioning: "CRC")
    }

    @Test func garbageImageDataWithValidCRCIsCorrupt() throws {
        let data = PNGBytes.header(width: 16, height: 16)
            + PNGBytes.chunk("IDAT", [UInt8](repeating: 0xa5, count: 64)) + PNGBytes.chunk("IEND", [])
        try expectCorrupt(data, mentioning: nil)
    }

    @Test func hugeDimensionsAreRejectedBeforeAllocating() {
        let data = PNGBytes.header(width: 100_000, height: 100_000) + PNGBytes.chunk("IEND", [])
        #expect(throws: PNGError.tooLarge(width: 100_000, height: 100_000, limit: PNGDecoder.defaultMaxDimension)) {
            try PNGDecoder.decode(data)
        }
    }

    @Test func callerLimitIsHonoured() throws {
        let data = try Self.worldTile()
        #expect(throws: PNGError.tooLarge(width: 256, height: 256, limit: 128)) {
            try PNGDecoder.decode(data, maxDimension: 128)
        }
    }

    /// Defence in depth: even if the C decoder is asked for a 1×1 output, libpng's
    /// user limits stop the 100000×100000 IHDR inside png_read_info.
    @Test func libpngUserLimitsStopHugeHeaderInC() {
        let data = PNGBytes.header(width: 100_000, height: 100_000) + PNGBytes.chunk("IEND", [])
        var out = [UInt8](repeating: 0, count: 4)
        var status = cpng_status()
        let code = cpng_decode_rgba8(data, data.count, &out, 1, 1, 8192, &status)
        #expect(code == Int32(CPNG_TOO_LARGE.rawValue))
    }

    @Test func zeroWidthIsCorrupt() {
        let data = PNGBytes.header(width: 0, height: 16) + PNGBytes.chunk("IEND", [])
        #expect {
            try PNGDecoder.decode(data)
        } throws: { error in
            if case .corrupt = error as? PNGError { return true }
            return false
        }
    }

    private func expectCorrupt(_ data: [UInt8], mentioning word: String?) throws {
        do {
            _ = try PNGDecoder.decode(data)
            Issue.record("decoding damaged data succeeded")
        } catch {
            guard case .corrupt(let reason) = error else {
                Issue.record("expected .corrupt, got \(error)")
                return
            }
            if let word { #expect(reason.contains(word), "reason: \(reason)") }
            #expect(error.description.contains("corrupt"))
        }
    }

    /// Byte offset of the first chunk of `type` (its length field).
    static func chunkOffset(_ type: String, in data: [UInt8]) -> Int? {
        var offset = 8
        let name = Array(type.utf8)
        while offset + 8 <= data.count {
            let length = Int(data[offset]) << 24 | Int(data[offset + 1]) << 16
                | Int(data[offset + 2]) << 8 | Int(data[offset + 3])
            if Array(data[(offset + 4)..<(offset + 8)]) == name { return offset }
            offset += 12 + length
        }
        return nil
    }
}
