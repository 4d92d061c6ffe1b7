import Testing
@testable import TileProviders

@Suite struct TileFormatTests {
    static let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0]
    static let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0]
    static let webp: [UInt8] = Array("RIFF".utf8) + [1, 0, 0, 0] + Array("WEBPVP8 ".utf8)
    static let gzip: [UInt8] = [0x1F, 0x8B, 8, 0]
    static let mvt: [UInt8] = [0x1A, 0x03, 0x0A, 0x01, 0x61]

    @Test("Magic bytes", arguments: [
        (TileFormat.png, png, true), (.png, jpeg, false), (.png, Array(png.prefix(8)), false),
        (.jpg, jpeg, true), (.jpg, png, false), (.jpg, [0xFF, 0xD8], false),
        (.webp, webp, true), (.webp, Array("RIFF".utf8) + [1, 0, 0, 0] + Array("WAVEfmt ".utf8), false),
        (.pbf, gzip, true), (.pbf, mvt, true), (.pbf, [], true), (.pbf, png, false), (.pbf, jpeg, false),
    ])
    func magic(_ format: TileFormat, _ bytes: [UInt8], _ matches: Bool) {
        #expect(format.matches(bytes) == matches)
    }

    @Test("Names, extensions and content types")
    func names() {
        #expect(TileFormat(name: " JPEG ") == .jpg && TileFormat(name: "mvt") == .pbf && TileFormat(name: "gif") == nil)
        #expect(TileFormat(fileExtension: "jpeg") == .jpg && TileFormat(fileExtension: "PNG") == nil)
        #expect(TileFormat(pathExtensionOf: "https://a.example/{z}/{x}/{y}.webp?key=a.png") == .webp)
        #expect(TileFormat(pathExtensionOf: "{z}/{x}/{y}") == nil && TileFormat(pathExtensionOf: "tiles.v2/{z}/{x}/{y}") == nil)
        #expect(TileFormat.allCases.map(\.contentType) == ["image/png", "image/jpeg", "image/webp", "application/vnd.mapbox-vector-tile"])
        #expect(TileFormat.allCases.filter(\.isRaster) == [.png, .jpg, .webp])
    }

    @Test("A URL extension is exactly one of the six names", arguments: [
        ("png", TileFormat.png), ("jpg", .jpg), ("jpeg", .jpg), ("webp", .webp), ("pbf", .pbf), ("mvt", .pbf),
        ("", nil), ("p", nil), ("pn", nil), ("pngx", nil), ("webpx", nil), ("jpegs", nil), ("Png", nil),
        ("gif", nil), ("jpe", nil), ("pngpngpng", nil), ("webq", nil), ("gnp", nil), ("\u{0}png", nil), ("png\u{0}", nil),
    ] as [(String, TileFormat?)])
    func fileExtension(_ text: String, _ format: TileFormat?) {
        #expect(TileFormat(fileExtension: text) == format)
        var bytes = text
        #expect(bytes.withUTF8 { TileFormat(fileExtension: $0) } == format)
    }
}
