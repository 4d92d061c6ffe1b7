import Testing
import TileCodecs

@Suite("JPEG codec")
struct JPEGCodecTests {
    @Test(arguments: [50, 85, 95])
    func roundTripStaysClose(quality: Int) throws {
        let source = CodecFixture.gradient()
        let bytes = try JPEGEncoder(quality: quality).encode(source)
        #expect(RasterFormat(magic: bytes) == .jpeg)
        #expect(try ImageDecoder.size(of: bytes) == (256, 256))
        let decoded = try ImageDecoder.decode(bytes)
        #expect(decoded.width == 256 && decoded.height == 256)
        #expect(decoded.isOpaque)
        let error = CodecFixture.error(source, decoded)
        #expect(error.mean < (quality >= 85 ? 1.5 : 3.0), "mean error \(error.mean) at quality \(quality)")
        #expect(error.max < 40, "max error \(error.max)")
    }

    @Test func higherQualityIsLargerAndCloser() throws {
        let source = CodecFixture.gradient()
        let low = try JPEGEncoder(quality: 30).encode(source)
        let high = try JPEGEncoder(quality: 95).encode(source)
        #expect(low.count < high.count)
        let lowError = CodecFixture.error(source, try ImageDecoder.decode(low)).mean
        let highError = CodecFixture.error(source, try ImageDecoder.decode(high)).mean
        #expect(highError < lowError)
    }

    @Test func transparencyIsCompositedOverTheBackground() throws {
        // Left half transparent, right half opaque gradient.
        let source = CodecFixture.gradient(width: 64, height: 64) { x, _ in x < 32 ? 0 : 255 }
        let overWhite = try ImageDecoder.decode(try JPEGEncoder().encode(source))
        let overRed = try ImageDecoder.decode(try JPEGEncoder(background: RGBAColor(red: 200, green: 0, blue: 0)).encode(source))
        let white = try #require(overWhite.pixel(x: 8, y: 32))
        let red = try #require(overRed.pixel(x: 8, y: 32))
        #expect(white.red > 245 && white.green > 245 && white.blue > 245, "\(white)")
        #expect(abs(Int(red.red) - 200) < 8 && red.green < 10 && red.blue < 10, "\(red)")
        #expect(overWhite.pixel(x: 8, y: 32)?.alpha == 255)
    }

    @Test func halfTransparentPixelsBlend() {
        let image = RGBAImage(width: 2, height: 2, fill: RGBAColor(red: 0, green: 0, blue: 0, alpha: 128))
        let flat = image.flattened(over: .white)
        // 255 × (255 − 128) / 255 = 127
        #expect(flat.pixel(x: 1, y: 1) == RGBAColor(red: 127, green: 127, blue: 127, alpha: 255))
    }

    @Test(arguments: [0, 101, -5])
    func qualityOutOfRangeIsRefused(quality: Int) {
        #expect(throws: ImageCodecError.invalidSettings(format: .jpeg, reason: "quality \(quality) is not in 1...100")) {
            try JPEGEncoder(quality: quality).encode(CodecFixture.gradient(width: 8, height: 8))
        }
    }

    @Test func encoderChosenByFormat() throws {
        let encoder = ImageEncoder(format: .jpeg)
        #expect(encoder == .jpeg(JPEGEncoder(quality: 85, background: .white)))
        let bytes = try encoder.encode(CodecFixture.gradient(width: 16, height: 16))
        #expect(try ImageDecoder.format(of: bytes) == .jpeg)
    }
}
