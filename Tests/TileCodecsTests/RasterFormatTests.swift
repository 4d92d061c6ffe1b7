import Testing
import TileCodecs

@Suite("RasterFormat: magic bytes")
struct RasterFormatTests {
    @Test(arguments: [
        ([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0], RasterFormat.png),
        ([0xFF, 0xD8, 0xFF, 0xE0], .jpeg),
        (Array("RIFF\u{1}\u{0}\u{0}\u{0}WEBPVP8 ".utf8), .webp),
    ] as [([UInt8], RasterFormat)])
    func recognises(bytes: [UInt8], format: RasterFormat) throws {
        #expect(RasterFormat(magic: bytes) == format)
        #expect(try ImageDecoder.format(of: bytes) == format)
    }

    @Test(arguments: [
        [],
        [0x89, 0x50, 0x4E],
        [0xFF, 0xD8],
        Array("RIFF\u{1}\u{0}\u{0}\u{0}WAVE".utf8),
        Array("<html>not an image</html>".utf8),
        [0x1F, 0x8B, 0x08, 0x00],
    ] as [[UInt8]])
    func refusesOtherBytes(bytes: [UInt8]) {
        #expect(RasterFormat(magic: bytes) == nil)
        #expect(throws: ImageCodecError.unknownFormat(leadingBytes: ImageCodecErrorProbe.hex(bytes))) {
            try ImageDecoder.decode(bytes)
        }
    }

    @Test func unknownFormatNamesTheBytes() {
        let error = ImageCodecError.unknownFormat(leadingBytes: "3C 68")
        #expect(error.description.contains("not a PNG, JPEG or WebP image"))
        #expect(error.description.contains("3C 68"))
    }
}

/// The expected hex rendering, written independently of the module's.
enum ImageCodecErrorProbe {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.isEmpty ? "none, the data is empty"
            : bytes.prefix(8).map { byte in
                let text = String(byte, radix: 16, uppercase: true)
                return text.count == 1 ? "0" + text : text
            }.joined(separator: " ")
    }
}
