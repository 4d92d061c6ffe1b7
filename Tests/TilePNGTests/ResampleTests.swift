import Testing
import TilePNG

@Suite("bilinear upscale and box downscale")
struct ResampleTests {
    static func opaque(_ rows: [[UInt8]]) -> RGBAImage {
        var image = RGBAImage(width: rows[0].count, height: rows.count)
        for (y, row) in rows.enumerated() {
            for (x, value) in row.enumerated() {
                image.setPixel(x: x, y: y, to: RGBAColor(red: value, green: 255 - value, blue: 7))
            }
        }
        return image
    }

    static func reds(_ image: RGBAImage) -> [[UInt8]] {
        (0..<image.height).map { y in (0..<image.width).map { x in image.pixel(x: x, y: y)!.red } }
    }

    @Test func upscaleWeightsAreNineThreeThreeOne() {
        let image = Self.opaque([[0, 100], [200, 40]])
        let up = image.upscaled2x()
        // Row 1, column 1 mixes (0,0)·9 + (1,0)·3 + (0,1)·3 + (1,1)·1 → (0 + 300 + 600 + 40 + 8) / 16 = 59.
        // Row 1, column 2: (100·9 + 0·3 + 40·3 + 200 + 8) / 16 = 76.75 → 76.
        #expect(Self.reds(up) == [
            [0, 25, 75, 100],
            [50, 59, 76, 85],
            [150, 126, 79, 55],
            [200, 160, 80, 40],
        ])
        #expect(up.pixel(x: 1, y: 1)!.green == 255 - 59)
        #expect(up.pixel(x: 3, y: 3)!.alpha == 255)
    }

    @Test func upscaleDoesNotBleedTransparentColour() {
        var image = RGBAImage(width: 2, height: 1, fill: .blue)
        image.setPixel(x: 0, y: 0, to: RGBAColor(red: 255, green: 0, blue: 0, alpha: 0))
        let up = image.upscaled2x()
        // Output x = 1 mixes 3/4 of the transparent pixel with 1/4 blue: alpha 64, colour pure blue.
        #expect(up.pixel(x: 1, y: 0) == RGBAColor(red: 0, green: 0, blue: 255, alpha: 64))
        #expect(up.pixel(x: 0, y: 0) == RGBAColor.clear)
    }

    @Test(arguments: RGBAImage.Quadrant.allCases)
    func quadrantUpscaleIsThatQuarterOfTheFullUpscale(_ quadrant: RGBAImage.Quadrant) throws {
        let image = PNGEncoderTests.pattern(width: 8, height: 6)
        let upQuadrant = try image.upscaledQuadrant(quadrant)
        #expect(upQuadrant.width == 8 && upQuadrant.height == 6)
        #expect(upQuadrant == (try image.upscaled2x().cropped(to: quadrant)))
    }

    @Test func quadrantUpscaleValues() throws {
        let image = Self.opaque([[0, 100, 20, 20], [200, 40, 20, 20], [9, 9, 9, 9], [9, 9, 9, 9]])
        // The last row and column take their outer neighbours from the adjacent
        // quadrants (20 to the east, 9 to the south), not from clamping.
        #expect(Self.reds(try image.upscaledQuadrant(.northWest)) == [
            [0, 25, 75, 80],
            [50, 59, 76, 69],
            [150, 126, 79, 46],
            [152, 122, 62, 29],
        ])
        #expect(throws: PNGError.self) { try RGBAImage(width: 3, height: 4).upscaledQuadrant(.northEast) }
    }

    @Test func downscaleAveragesWithRoundingHalfUp() throws {
        let image = Self.opaque([[10, 20, 0, 0], [30, 41, 1, 2]])
        let down = try image.downscaled2x()
        #expect(down.width == 2 && down.height == 1)
        #expect(down.pixel(x: 0, y: 0) == RGBAColor(red: 25, green: 230, blue: 7)) // 101/4 = 25.25; 919/4 = 229.75
        #expect(down.pixel(x: 1, y: 0)!.red == 1) // 3/4 = 0.75 → 1
        let tie = try Self.opaque([[10, 20], [30, 42]]).downscaled2x()
        #expect(tie.pixel(x: 0, y: 0)!.red == 26) // 102/4 = 25.5 → 26
    }

    @Test func downscaleWeightsColourByAlpha() throws {
        var image = RGBAImage(width: 2, height: 2, fill: RGBAColor(red: 200, green: 100, blue: 0))
        image.setPixel(x: 0, y: 0, to: RGBAColor(red: 0, green: 255, blue: 255, alpha: 0))
        image.setPixel(x: 1, y: 0, to: RGBAColor(red: 0, green: 255, blue: 255, alpha: 0))
        // Alpha (0 + 0 + 255 + 255) / 4 = 127.5 → 128; colour only from the opaque pixels.
        #expect(try image.downscaled2x().pixel(x: 0, y: 0) == RGBAColor(red: 200, green: 100, blue: 0, alpha: 128))
        #expect(throws: PNGError.self) { try RGBAImage(width: 3, height: 2).downscaled2x() }
    }

    @Test func downscaleOfUpscaleOfSolidIsIdentity() throws {
        let solid = RGBAImage(width: 6, height: 4, fill: RGBAColor(red: 12, green: 34, blue: 56, alpha: 78))
        #expect(try solid.upscaled2x().downscaled2x() == solid)
        #expect(try solid.upscaledQuadrant(.southEast) == solid)
    }
}
