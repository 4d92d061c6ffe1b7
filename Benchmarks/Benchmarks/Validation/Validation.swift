// What checking a tile costs before it is kept or served as good (`TileFormat.defect(in:)`, a
// walk of the format's structure, not a decode): PNG tiles of 52 and 125 KB from tiles/world
// (chunks, lengths, CRCs to IEND), the 52 KB one decoded for comparison, a JPEG and a WebP made
// from it, and a 50 KB vector tile (its protobuf fields; a gzip-compressed one is inflated
// first, which this does not measure).
import Benchmark
import BenchmarkFixtures
import TileCodecs
import TilePNG
import TileProviders

/// A vector tile of about `bytes` bytes: one layer of point features (MVT 2.1: a layer is field
/// 3 of the tile; its name 1, features 2, keys 3, values 4, version 15; a feature's tags 2, type
/// 3, geometry 4).
func vectorTile(bytes: Int) -> [UInt8] {
    func varint(_ value: UInt64) -> [UInt8] {
        var value = value, out: [UInt8] = []
        while value >= 0x80 { out.append(UInt8(value & 0x7F) | 0x80); value >>= 7 }
        return out + [UInt8(value)]
    }
    func field(_ number: UInt64, _ payload: [UInt8]) -> [UInt8] { varint(number << 3 | 2) + varint(UInt64(payload.count)) + payload }
    let feature = field(2, [0, 0]) + varint(3 << 3) + [1] + field(4, varint(9) + varint(50) + varint(34))
    var layer = field(1, Array("points".utf8)) + field(3, Array("kind".utf8)) + field(4, field(1, Array("tree".utf8)))
    layer += varint(15 << 3) + [2]
    while layer.count < bytes { layer += field(2, feature) }
    return field(3, layer)
}

let benchmarks: @Sendable () -> Void = {
    Fixtures.configureSuite()
    let small = Fixtures.worldTile(3, 3, 3)  // 52 KB
    let large = Fixtures.worldTile(3, 1, 2)  // 125 KB
    let image: RGBAImage
    let jpeg: [UInt8], webp: [UInt8]
    let mvt = vectorTile(bytes: 50_000)
    do {
        image = try PNGDecoder.decode(small)
        jpeg = try JPEGEncoder().encode(image)
        webp = try WebPEncoder().encode(image)
    } catch { fatalError("benchmarks: \(error)") }
    let cases: [(String, TileFormat, [UInt8])] = [
        ("PNG \(small.count / 1000) KB", .png, small), ("PNG \(large.count / 1000) KB", .png, large),
        ("JPEG \(jpeg.count / 1000) KB", .jpg, jpeg), ("WebP \(webp.count / 1000) KB", .webp, webp),
        ("MVT \(mvt.count / 1000) KB", .pbf, mvt),
    ]
    for (label, format, bytes) in cases {
        guard format.defect(in: bytes) == nil else { fatalError("benchmarks: the \(label) fixture is not whole") }
        Benchmark("Validation: \(label)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            for _ in benchmark.scaledIterations {
                blackHole(format.defect(in: bytes))
            }
        }
    }
    Benchmark("Decode for comparison: PNG \(small.count / 1000) KB") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PNGDecoder.decode(small))
        }
    }
}
