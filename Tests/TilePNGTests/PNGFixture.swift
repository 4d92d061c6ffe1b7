import CPNGCodec
import TilePNG

/// Builds PNG fixtures in code for every colour type and bit depth by packing
/// samples and writing them with libpng (CPNGCodec's general writer), together
/// with the RGBA8 the decoder must produce.
struct PNGFixture: Sendable, CustomStringConvertible {
    var colorType: Int32
    var bitDepth: Int
    var interlaced: Bool
    var withTRNS: Bool
    var width = 13
    var height = 11

    /// Every colour type × bit depth the PNG spec allows (§11.2.2 Table 11.1).
    static let validDepths: [(Int32, [Int])] = [
        (Int32(CPNG_COLOR_GRAY), [1, 2, 4, 8, 16]),
        (Int32(CPNG_COLOR_RGB), [8, 16]),
        (Int32(CPNG_COLOR_PALETTE), [1, 2, 4, 8]),
        (Int32(CPNG_COLOR_GRAY_ALPHA), [8, 16]),
        (Int32(CPNG_COLOR_RGBA), [8, 16]),
    ]

    /// All combinations, with and without Adam7, and with tRNS where the type allows it.
    static let all: [PNGFixture] = validDepths.flatMap { colorType, depths in
        depths.flatMap { depth in
            [false, true].flatMap { interlaced in
                let canHaveTRNS = colorType != Int32(CPNG_COLOR_GRAY_ALPHA) && colorType != Int32(CPNG_COLOR_RGBA)
                return (canHaveTRNS ? [false, true] : [false]).map { trns in
                    PNGFixture(colorType: colorType, bitDepth: depth, interlaced: interlaced, withTRNS: trns)
                }
            }
        }
    }

    var description: String {
        "type \(colorType) depth \(bitDepth)\(interlaced ? " Adam7" : "")\(withTRNS ? " tRNS" : "")"
    }

    var channels: Int {
        switch colorType {
        case Int32(CPNG_COLOR_RGB): 3
        case Int32(CPNG_COLOR_GRAY_ALPHA): 2
        case Int32(CPNG_COLOR_RGBA): 4
        default: 1
        }
    }

    var maxSample: Int { (1 << bitDepth) - 1 }
    var paletteEntries: Int { min(1 << bitDepth, 256) }
    var isPalette: Bool { colorType == Int32(CPNG_COLOR_PALETTE) }

    /// A deterministic pattern covering the sample range.
    func sample(x: Int, y: Int, channel: Int) -> Int {
        if bitDepth == 16 { return (x * 7919 + y * 10_007 + channel * 31_337) % 65_536 }
        let value = (x * 7 + y * 13 + channel * 5) * 37
        return isPalette ? value % paletteEntries : value & maxSample
    }

    func paletteColor(_ index: Int) -> [UInt8] {
        [UInt8(index * 37 % 256), UInt8(index * 91 % 256), UInt8(index * 53 % 256)]
    }

    /// Palette alpha for the first half of the entries (at least one).
    var paletteAlpha: [UInt8] {
        (0..<max(1, paletteEntries / 2)).map { UInt8($0 * 60 % 256) }
    }

    /// The tRNS colour for gray/RGB: the colour of pixel (0, 0), so it occurs.
    var transparentSamples: [Int] { (0..<channels).map { sample(x: 0, y: 0, channel: $0) } }

    /// A sample scaled to 8 bits the way libpng does (exact for 1/2/4, rounded for 16).
    func to8(_ value: Int) -> UInt8 {
        bitDepth == 16 ? UInt8((2 * value + 257) / 514) : UInt8(value * 255 / maxSample)
    }

    /// The RGBA8 image the decoder must return.
    var expected: RGBAImage {
        var image = RGBAImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let samples = (0..<channels).map { sample(x: x, y: y, channel: $0) }
                image.setPixel(x: x, y: y, to: expectedColor(samples))
            }
        }
        return image
    }

    func expectedColor(_ s: [Int]) -> RGBAColor {
        let keyed: UInt8 = withTRNS && s == transparentSamples ? 0 : 255
        switch colorType {
        case Int32(CPNG_COLOR_PALETTE):
            let rgb = paletteColor(s[0])
            let alpha = withTRNS && s[0] < paletteAlpha.count ? paletteAlpha[s[0]] : 255
            return RGBAColor(red: rgb[0], green: rgb[1], blue: rgb[2], alpha: alpha)
        case Int32(CPNG_COLOR_GRAY):
            return RGBAColor(red: to8(s[0]), green: to8(s[0]), blue: to8(s[0]), alpha: keyed)
        case Int32(CPNG_COLOR_GRAY_ALPHA):
            return RGBAColor(red: to8(s[0]), green: to8(s[0]), blue: to8(s[0]), alpha: to8(s[1]))
        case Int32(CPNG_COLOR_RGB):
            return RGBAColor(red: to8(s[0]), green: to8(s[1]), blue: to8(s[2]), alpha: keyed)
        default:
            return RGBAColor(red: to8(s[0]), green: to8(s[1]), blue: to8(s[2]), alpha: to8(s[3]))
        }
    }
}
