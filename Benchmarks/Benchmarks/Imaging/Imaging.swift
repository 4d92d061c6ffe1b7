// TilePNG on real tiles of tiles/world: decoding and encoding one 256 px tile, and an @2x tile
// derived as the server derives it (decode the four children, place them 2×2, encode 512 px).
// The PNG bytes are read before measuring; no disk I/O is timed.
import Benchmark
import BenchmarkFixtures
import TilePNG

let benchmarks: @Sendable () -> Void = {
    Fixtures.configureSuite()
    let tile = Fixtures.worldTile(3, 4, 2)
    let image: RGBAImage
    do { image = try PNGDecoder.decode(tile) } catch { fatalError("tiles/world/3/4/2.png: \(error)") }
    let encoder = PNGEncoder()
    // The children of z2/2/1 at zoom 3: NW, NE, SW, SE.
    let children = [(4, 2), (5, 2), (4, 3), (5, 3)].map { Fixtures.worldTile(3, $0.0, $0.1) }

    Benchmark("PNG decode: 256 px tile (\(tile.count) B)") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try PNGDecoder.decode(tile))
        }
    }

    Benchmark("PNG encode: 256 px tile (level \(encoder.compressionLevel), \(encoder.filter))") { benchmark in
        for _ in benchmark.scaledIterations {
            blackHole(try encoder.encode(image))
        }
    }

    Benchmark("@2x compose: decode 4 + mosaic + encode 512 px") { benchmark in
        for _ in benchmark.scaledIterations {
            let images = try children.map { try PNGDecoder.decode($0) }
            let mosaic = try RGBAImage.mosaic2x2(nw: images[0], ne: images[1], sw: images[2], se: images[3])
            blackHole(try encoder.encode(mosaic))
        }
    }
}
