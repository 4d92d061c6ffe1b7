import Testing
import TilePNG

@Suite("Porter-Duff over in premultiplied alpha")
struct CompositeTests {
    static func solid(_ color: RGBAColor) -> RGBAImage { RGBAImage(width: 3, height: 2, fill: color) }

    static func only(_ image: RGBAImage) -> RGBAColor? {
        let first = image.pixel(x: 0, y: 0)
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y) != first { return nil } }
        return first
    }

    @Test func halfRedOverOpaqueBlue() throws {
        // Premultiplied: red 255·0.5 = 127.5, blue 255·(1 − 0.5) = 127.5, alpha 1 → halves round up.
        let result = try Self.solid(.red).composited(over: Self.solid(.blue), opacity: 0.5)
        #expect(Self.only(result) == RGBAColor(red: 128, green: 0, blue: 128, alpha: 255))
    }

    @Test func quarterGreenOverTranslucentRed() throws {
        // aₜ = 0.25, a_b = 0.8: A = 0.25 + 0.8·0.75 = 0.85 → 216.75 → 217;
        // red 255·0.8·0.75 / 0.85 = 180, green 255·0.25 / 0.85 = 75.
        let bottom = Self.solid(RGBAColor(red: 255, green: 0, blue: 0, alpha: 204))
        let result = try Self.solid(.green).composited(over: bottom, opacity: 0.25)
        #expect(Self.only(result) == RGBAColor(red: 180, green: 75, blue: 0, alpha: 217))
    }

    @Test func translucentOverTransparentKeepsStraightColour() throws {
        let top = Self.solid(RGBAColor(red: 200, green: 100, blue: 50, alpha: 128))
        #expect(Self.only(try top.composited(over: Self.solid(.clear))) == RGBAColor(red: 200, green: 100, blue: 50, alpha: 128))
        #expect(Self.only(try top.composited(over: Self.solid(.clear), opacity: 0.5))
            == RGBAColor(red: 200, green: 100, blue: 50, alpha: 64))
    }

    @Test(arguments: [0.0, -1.0, Double.nan])
    func invisibleTopLeavesBottom(_ opacity: Double) throws {
        let bottom = Self.solid(RGBAColor(red: 1, green: 2, blue: 3, alpha: 4))
        #expect(try Self.solid(.red).composited(over: bottom, opacity: opacity) == bottom)
        #expect(try Self.solid(.clear).composited(over: bottom) == bottom)
    }

    @Test func opaqueTopAtFullOpacityReplaces() throws {
        #expect(try Self.solid(.green).composited(over: Self.solid(.blue), opacity: 2) == Self.solid(.green))
    }

    @Test func stackIsRoundedOnlyOnce() throws {
        // After red at 0.5: (127.5, 0, 127.5); green at 0.25: red and blue ·0.75 = 95.625, green 63.75.
        let stack = try RGBAImage.composite([
            CompositeLayer(Self.solid(.blue)),
            CompositeLayer(Self.solid(.red), opacity: 0.5),
            CompositeLayer(Self.solid(.green), opacity: 0.25),
        ])
        #expect(Self.only(stack) == RGBAColor(red: 96, green: 64, blue: 96, alpha: 255))
    }

    @Test func perPixelAlphaIsUsed() throws {
        var top = Self.solid(.clear)
        top.setPixel(x: 2, y: 1, to: .white)
        let result = try top.composited(over: Self.solid(.black))
        #expect(result.pixel(x: 2, y: 1) == .white)
        #expect(result.pixel(x: 0, y: 0) == .black)
    }

    @Test func errors() {
        #expect(throws: PNGError.noLayers) { try RGBAImage.composite([]) }
        #expect(throws: PNGError.sizeMismatch(expectedWidth: 3, expectedHeight: 2, width: 1, height: 1)) {
            try RGBAImage(width: 1, height: 1).composited(over: Self.solid(.blue))
        }
    }
}
