import Foundation
import Testing
import TilePNG

@Suite("PNG decoding")
struct PNGDecoderTests {
    /// The shipped world tile (a copy of the real-world pyramid's 0/0/0), found from this file.
    static let worldTile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../tiles/world/0/0/0.png").standardized.path

    @Test("every colour type, bit depth, interlace and tRNS decodes to the expected RGBA8",
          arguments: PNGFixture.all)
    func decodesFixture(_ fixture: PNGFixture) throws {
        let data = try fixture.encoded()
        let image = try PNGDecoder.decode(data)
        #expect(image.width == fixture.width)
        #expect(image.height == fixture.height)
        #expect(image == fixture.expected)
    }

    @Test func fixturesCoverAllCombinations() {
        // 15 type/depth pairs × 2 interlace, doubled for the 11 pairs that allow tRNS.
        #expect(PNGFixture.all.count == 15 * 2 + 11 * 2)
    }

    @Test func realWorldTileDecodes() throws {
        let data = try [UInt8](Data(contentsOf: URL(fileURLWithPath: Self.worldTile)))
        #expect(try PNGDecoder.size(of: data) == (256, 256))
        let image = try PNGDecoder.decode(data)
        #expect(image.width == 256 && image.height == 256)
        #expect(image.pixels.count == 256 * 256 * 4)
        #expect(try PNGDecoder.decode(PNGEncoder().encode(image)) == image)
    }

    @Test func sizePeekReadsOnlyTheHeader() throws {
        // No IDAT at all: the peek must still answer.
        let size = try PNGDecoder.size(of: PNGBytes.header(width: 512, height: 256))
        #expect(size.width == 512 && size.height == 256)
    }

    @Test(arguments: [[UInt8](), [1, 2, 3], Array("GIF89a and more bytes here".utf8)])
    func nonPNGIsRejected(_ data: [UInt8]) {
        #expect {
            try PNGDecoder.decode(data)
        } throws: { error in
            if case .notPNG = error as? PNGError { return true }
            return false
        }
    }
}
