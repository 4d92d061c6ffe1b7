import Testing
import TilePNG

@Suite("mosaic and crop")
struct MosaicTests {
    /// A patterned image whose blue channel tags its origin.
    static func tagged(_ tag: UInt8, width: Int = 5, height: Int = 3) -> RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image.setPixel(x: x, y: y, to: RGBAColor(red: UInt8(x), green: UInt8(y), blue: tag, alpha: 200))
            }
        }
        return image
    }

    @Test func placesEveryPixelInItsQuadrant() throws {
        let (nw, ne, sw, se) = (Self.tagged(1), Self.tagged(2), Self.tagged(3), Self.tagged(4))
        let mosaic = try RGBAImage.mosaic2x2(nw: nw, ne: ne, sw: sw, se: se)
        #expect(mosaic.width == 10 && mosaic.height == 6)
        for y in 0..<6 {
            for x in 0..<10 {
                let tag: UInt8 = (y < 3 ? 1 : 3) + (x < 5 ? 0 : 1)
                let expected = RGBAColor(red: UInt8(x % 5), green: UInt8(y % 3), blue: tag, alpha: 200)
                #expect(mosaic.pixel(x: x, y: y) == expected, "at (\(x), \(y))")
            }
        }
    }

    @Test(arguments: RGBAImage.Quadrant.allCases)
    func cropUndoesMosaic(_ quadrant: RGBAImage.Quadrant) throws {
        let parts = [Self.tagged(1), Self.tagged(2), Self.tagged(3), Self.tagged(4)]
        let mosaic = try RGBAImage.mosaic2x2(nw: parts[0], ne: parts[1], sw: parts[2], se: parts[3])
        let index = RGBAImage.Quadrant.allCases.firstIndex(of: quadrant)!
        #expect(try mosaic.cropped(to: quadrant) == parts[index])
    }

    @Test func sizesMustMatch() {
        let small = Self.tagged(1)
        let other = Self.tagged(2, width: 6)
        #expect(throws: PNGError.sizeMismatch(expectedWidth: 5, expectedHeight: 3, width: 6, height: 3)) {
            try RGBAImage.mosaic2x2(nw: small, ne: small, sw: other, se: small)
        }
    }

    @Test func quadrantOfChildTile() {
        #expect(RGBAImage.Quadrant(childX: 4, childY: 6) == .northWest)
        #expect(RGBAImage.Quadrant(childX: 5, childY: 6) == .northEast)
        #expect(RGBAImage.Quadrant(childX: 4, childY: 7) == .southWest)
        #expect(RGBAImage.Quadrant(childX: 5, childY: 7) == .southEast)
    }
}
