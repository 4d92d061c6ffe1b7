import Foundation
import TestThreads
import Testing
import TileCodecs
import TileGeometry
import TileImagery
import TilePNG
import TileProviders

/// Our tiles against two implementations independent of tilelayer, on the same files: rio-tiler
/// (titiler's reader) and the gdalwarp command over the tile's EPSG:3857 box. Tolerances: a mean
/// colour difference of at most 2 of 255 where both have data and 99 % of samples within 16
/// (rio-tiler), 4 and 24 (gdalwarp, whose `-ovr AUTO` reads a finer overview for some 256 px
/// tiles: 3.1 and 18 seen at 0/0/0 of the world, 0 at every @2x), and at most 1.5 % of pixels
/// with data in one and not the other (the edge of the data, a pixel wide). Seen: most tiles
/// within 0.1 of rio-tiler, the world's within 1.5.
@Suite(.ownThreads, .timeLimit(.minutes(5)))
struct ReferenceTileTests {
    struct Case: Sendable, CustomTestStringConvertible {
        let fixture: ImageryFixture
        let resampling: GeoTIFFOptions.Resampling
        let rescale: ClosedRange<Double>?
        let tiles: [(z: Int, x: Int, y: Int)]
        var testDescription: String { "\(fixture) \(resampling)" }
    }

    static let cases = [
        Case(fixture: .world, resampling: .bilinear, rescale: nil, tiles: [(0, 0, 0), (1, 1, 0), (2, 1, 1), (3, 4, 3), (5, 16, 11)]),
        Case(fixture: .utm, resampling: .bilinear, rescale: nil, tiles: [(4, 8, 5), (5, 16, 10), (5, 17, 11), (6, 33, 22), (7, 66, 44)]),
        Case(fixture: .utm, resampling: .nearest, rescale: nil, tiles: [(5, 17, 11), (7, 67, 46)]),
        Case(fixture: .utm, resampling: .cubic, rescale: nil, tiles: [(6, 34, 23)]),
        Case(fixture: .mercator, resampling: .bilinear, rescale: nil, tiles: [(4, 8, 5), (5, 16, 10), (5, 17, 11), (7, 66, 44)]),
        Case(fixture: .utmMask, resampling: .bilinear, rescale: nil, tiles: [(5, 16, 10), (5, 17, 11)]),
        Case(fixture: .utm16, resampling: .bilinear, rescale: 1000 ... 4000, tiles: [(5, 16, 10), (6, 33, 22)]),
    ]

    @Test(arguments: cases)
    func matchesReferences(_ testCase: Case) async throws {
        let file = try await testCase.fixture.path
        let options = GeoTIFFOptions(rescale: testCase.rescale, resampling: testCase.resampling)
        let provider = try GeoTIFFTileProvider(location: .file(file), options: options)
        let specs = testCase.tiles.flatMap { tile in [1, 2].map { ReferenceTiles.spec(tile.z, tile.x, tile.y, scale: $0) } }
        let rescale = testCase.rescale.map { "[\($0.lowerBound), \($0.upperBound)]" } ?? "null"
        let references = try await ReferenceTiles.make(file: file, resampling: testCase.resampling.rawValue,
                                                       options: #"{"rescale": \#(rescale)}"#, specs: specs)
        for tile in testCase.tiles {
            for scale in [1, 2] {
                let spec = ReferenceTiles.spec(tile.z, tile.x, tile.y, scale: scale)
                let result = try atLowestPriority {
                    try provider.tile(for: TileRequest(tile: TileCoordinate(z: tile.z, x: tile.x, y: tile.y), scale: scale))
                }
                guard case .tile(let ours) = result else {
                    Issue.record("\(spec): expected a tile, got \(result)")
                    continue
                }
                let image = try PNGDecoder.decode(ours.data)
                #expect(image.width == 256 * scale && image.height == 256 * scale, "\(spec)")
                let rio = TileDifference(image, try references.pixels("rio", spec))
                #expect(rio.meanColour <= 2 && rio.p99Colour <= 16 && rio.alphaMismatch <= 0.015, "\(spec) vs rio-tiler: \(rio)")
                let warp = TileDifference(image, try references.pixels("gdalwarp", spec))
                #expect(warp.meanColour <= 4 && warp.p99Colour <= 24 && warp.alphaMismatch <= 0.015, "\(spec) vs gdalwarp: \(warp)")
            }
        }
    }

    /// Outside the footprint: no tile, where rio-tiler says the tile is outside the raster.
    @Test func outsideIsNoTile() async throws {
        let file = try await ImageryFixture.utm.path
        let provider = try GeoTIFFTileProvider(location: .file(file))
        let references = try await ReferenceTiles.make(file: file, resampling: "bilinear", specs: ["4/0/0@1", "5/2/20@1"])
        for (z, x, y) in [(4, 0, 0), (5, 2, 20)] {
            #expect(try provider.tile(for: TileRequest(x: x, y: y, zoom: z)) == .noTile)
            #expect(try references.pixels("rio", "\(z)/\(x)/\(y)@1").isEmpty)
        }
    }
}
