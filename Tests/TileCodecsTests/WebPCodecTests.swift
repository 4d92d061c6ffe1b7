import Testing
import TileCodecs

@Suite("WebP codec")
struct WebPCodecTests {
    @Test func lossyRoundTripStaysClose() throws {
        let source = CodecFixture.gradient()
        let bytes = try WebPEncoder().encode(source)
        #expect(RasterFormat(magic: bytes) == .webp)
        #expect(try ImageDecoder.size(of: bytes) == (256, 256))
        let decoded = try ImageDecoder.decode(bytes)
        #expect(decoded.isOpaque)
        let error = CodecFixture.error(source, decoded)
        #expect(error.mean < 3.0, "mean error \(error.mean)")
        #expect(error.max < 60, "max error \(error.max)")
    }

    @Test func losslessRoundTripIsExactWithAlpha() throws {
        let source = CodecFixture.gradient(width: 100, height: 60) { x, y in UInt8((x * 7 + y * 3) % 256) }
        let bytes = try WebPEncoder(quality: 50, lossless: true).encode(source)
        let decoded = try ImageDecoder.decode(bytes)
        // libwebp may change the RGB of fully transparent pixels (exact = 0), so compare those by alpha.
        var exact = true
        for index in stride(from: 0, to: source.pixels.count, by: 4) where source.pixels[index + 3] != 0 {
            exact = exact && source.pixels[index..<index + 4] == decoded.pixels[index..<index + 4]
        }
        #expect(exact)
        #expect(Bool(decoded.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == source.pixels[$0.offset] }))
    }

    @Test func lossyKeepsAlpha() throws {
        let source = CodecFixture.gradient(width: 64, height: 64) { x, _ in x < 32 ? 0 : 255 }
        let decoded = try ImageDecoder.decode(try WebPEncoder().encode(source))
        #expect(decoded.pixel(x: 4, y: 10)?.alpha == 0)
        #expect(decoded.pixel(x: 60, y: 10)?.alpha == 255)
    }

    @Test func lowerQualityIsSmaller() throws {
        let source = CodecFixture.gradient()
        #expect(try WebPEncoder(quality: 20).encode(source).count < WebPEncoder(quality: 95).encode(source).count)
    }

    @Test(arguments: [(101, 2), (-1, 2), (80, 7)])
    func settingsOutOfRangeAreRefused(quality: Int, method: Int) {
        #expect(throws: ImageCodecError.self) {
            try WebPEncoder(quality: quality, method: method).encode(CodecFixture.gradient(width: 8, height: 8))
        }
    }

    @Test func pngStillDecodesThroughTheSameEntryPoint() throws {
        let source = CodecFixture.gradient(width: 32, height: 32)
        let bytes = try ImageEncoder(format: .png).encode(source)
        #expect(try ImageDecoder.format(of: bytes) == .png)
        #expect(try ImageDecoder.decode(bytes) == source)
    }
}
