import Testing
import TilePNG

@Suite("drawing helpers and bitmap font")
struct DrawTests {
    static func inked(_ image: RGBAImage) -> Set<[Int]> {
        var points = Set<[Int]>()
        for y in 0..<image.height { for x in 0..<image.width where image.pixel(x: x, y: y) != .clear { points.insert([x, y]) } }
        return points
    }

    @Test func fillIsClipped() {
        var image = RGBAImage(width: 5, height: 5)
        image.fillRectangle(x: -2, y: -2, width: 4, height: 4, color: .red)
        #expect(Self.inked(image) == [[0, 0], [1, 0], [0, 1], [1, 1]])
        image.fillRectangle(x: 4, y: 4, width: 10, height: 10, color: .blue)
        #expect(image.pixel(x: 4, y: 4) == .blue)
        image.fillRectangle(x: 9, y: 9, width: 2, height: 2, color: .blue) // fully outside: no-op
        #expect(Self.inked(image).count == 5)
    }

    @Test func strokeDrawsOnlyTheBorder() {
        var image = RGBAImage(width: 8, height: 8)
        image.strokeRectangle(x: 1, y: 2, width: 5, height: 4, color: .white)
        var expected = Set<[Int]>()
        for x in 1...5 { expected.insert([x, 2]); expected.insert([x, 5]) }
        for y in 2...5 { expected.insert([1, y]); expected.insert([5, y]) }
        #expect(Self.inked(image) == expected)
        #expect(expected.count == 14)
    }

    @Test func glyphOneAtScaleOne() {
        var image = RGBAImage(width: 10, height: 10)
        let width = image.drawText("1", x: 2, y: 3, color: .black)
        #expect(width == 5)
        // "1": ..#.. / .##.. / ..#.. ×4 / .###.
        let art = ["..#..", ".##..", "..#..", "..#..", "..#..", "..#..", ".###."]
        var expected = Set<[Int]>()
        for (row, line) in art.enumerated() {
            for (column, cell) in line.enumerated() where cell == "#" { expected.insert([2 + column, 3 + row]) }
        }
        #expect(Self.inked(image) == expected)
    }

    @Test(arguments: [1, 2, 3])
    func scaledTextMatchesFontCells(_ scale: Int) {
        let text = "z/x/y@2x.png-7"
        var image = RGBAImage(width: BitmapFont.width(of: text, scale: scale) + 4, height: 7 * scale + 4)
        let drawn = image.drawText(text, x: 2, y: 2, scale: scale, color: .red)
        #expect(drawn == ((text.count - 1) * 6 + 5) * scale)
        for (index, character) in text.enumerated() {
            for row in 0..<7 {
                for column in 0..<6 {
                    let ink = BitmapFont.isSet(character, column: column, row: row)
                    for dy in 0..<scale {
                        for dx in 0..<scale {
                            let x = 2 + (index * 6 + column) * scale + dx
                            #expect((image.pixel(x: x, y: 2 + row * scale + dy) == .red) == ink)
                        }
                    }
                }
            }
        }
    }

    @Test func fontCoversTheDebugTileAlphabet() {
        let required = Set("0123456789abcdefghijklmnopqrstuvwxyz/@x.- ")
        #expect(required.isSubset(of: BitmapFont.supportedCharacters))
        for character in required where character != " " {
            let ink = (0..<7).flatMap { row in (0..<5).map { BitmapFont.isSet(character, column: $0, row: row) } }
            #expect(ink.contains(true), "glyph \(character) is empty")
        }
    }

    @Test func upperCaseAndUnknownCharacters() {
        var upper = RGBAImage(width: 6, height: 8)
        var lower = upper
        upper.drawText("A", x: 0, y: 0, color: .black)
        lower.drawText("a", x: 0, y: 0, color: .black)
        #expect(upper == lower)
        var unknown = RGBAImage(width: 6, height: 8)
        var question = unknown
        unknown.drawText("€", x: 0, y: 0, color: .black)
        question.drawText("?", x: 0, y: 0, color: .black)
        #expect(unknown == question)
    }
}
