import Testing
import TilePNG

@Suite("PNG encoding")
struct PNGEncoderTests {
    /// A patterned image with varying alpha.
    static func pattern(width: Int = 37, height: Int = 23, opaque: Bool = false) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image.setPixel(x: x, y: y, to: RGBAColor(
                    red: UInt8((x * 7) & 255), green: UInt8((y * 11) & 255), blue: UInt8((x * y) & 255),
                    alpha: opaque ? 255 : UInt8((x * 3 + y * 5) & 255)))
            }
        }
        return image
    }

    static let settings: [(Int, PNGEncoder.Filter)] =
        [0, 1, 6, 9].flatMap { level in PNGEncoder.Filter.allCases.map { (level, $0) } }

    @Test("encode → decode is lossless", arguments: settings)
    func roundTrip(level: Int, filter: PNGEncoder.Filter) throws {
        let encoder = PNGEncoder(compressionLevel: level, filter: filter)
        for image in [Self.pattern(), Self.pattern(opaque: true), RGBAImage(width: 1, height: 1)] {
            #expect(try PNGDecoder.decode(encoder.encode(image)) == image)
        }
    }

    /// IHDR colour type byte: 8 signature + 4 length + 4 type + 8 size + 1 depth.
    static func colorType(of png: [UInt8]) -> UInt8 { png[25] }

    @Test func opaqueImagesAreWrittenAsRGB() throws {
        let opaque = Self.pattern(opaque: true)
        #expect(Self.colorType(of: try PNGEncoder().encode(opaque)) == 2)
        #expect(Self.colorType(of: try PNGEncoder(dropsOpaqueAlpha: false).encode(opaque)) == 6)
        #expect(Self.colorType(of: try PNGEncoder().encode(Self.pattern())) == 6)
    }

    @Test func higherLevelIsNotLarger() throws {
        let image = Self.pattern(width: 128, height: 128)
        let stored = try PNGEncoder(compressionLevel: 0).encode(image)
        let best = try PNGEncoder(compressionLevel: 9).encode(image)
        #expect(best.count < stored.count)
    }

    @Test(arguments: [-1, 10, 99])
    func levelOutOfRangeIsRejected(_ level: Int) {
        #expect {
            try PNGEncoder(compressionLevel: level).encode(RGBAImage(width: 2, height: 2))
        } throws: { error in
            guard case .invalidSettings(let reason) = error as? PNGError else { return false }
            return reason.contains("\(level)")
        }
    }

    @Test func pixelCountMustMatchSize() {
        #expect(throws: PNGError.invalidImage(width: 2, height: 2, reason: "expected width × height × 4 bytes, got 15")) {
            try RGBAImage(width: 2, height: 2, pixels: [UInt8](repeating: 0, count: 15))
        }
    }
}
