import TestThreads
import Testing
import TileGeometry
@testable import TileImagery

/// `SeparableWarp` against GDAL's own warper on the same tiles of the same files: the two-pass
/// bilinear must be the warper's bilinear (its kernel widened by the downsampling, its edges),
/// not merely close to a reference as `ReferenceTileTests` allows.
@Suite(.ownThreads, .timeLimit(.minutes(5)))
struct SeparableWarpTests {
    static let tiles: [(z: Int, x: Int, y: Int)] = [
        (0, 0, 0), (1, 1, 0), (2, 1, 1), (3, 4, 3), (4, 8, 5), (5, 16, 10), (5, 17, 11), (6, 33, 22), (7, 66, 44), (8, 132, 88),
    ]

    /// Both warpers of `fixture`: the separable one (nil when it does not apply) and GDAL's.
    private func warpers(_ fixture: ImageryFixture, resampling: GeoTIFFOptions.Resampling = .bilinear)
        async throws -> (separable: TileWarper, gdal: TileWarper) {
        let location = RasterLocation.file(try await fixture.path)
        let options = GeoTIFFOptions(resampling: resampling)
        let info = try RasterInfo(GDALDataset(location), options: options)
        let separable = TileWarper(location: location, info: info, options: options)
        let gdal = TileWarper(location: location, info: info, options: options, allowsSeparable: false)
        _ = try separable.level(-1)
        _ = try gdal.level(-1)
        return (separable, gdal)
    }

    /// Tiles that reach past the raster's edge over most of their source window: GDAL warps
    /// them in chunks of 100 px or less (its source fill ratio heuristic), each chunk's kernel
    /// widened by its own ratio, where ours is one width for the tile.
    static let chunkedByGDAL: Set<String> = ["mercator 0/0/0", "mercator 1/1/0", "mercator 3/4/3"]

    @Test(arguments: [ImageryFixture.world, .worldOneOverview, .mercator, .worldGrey])
    func drawsWhatGDALsWarperDraws(_ fixture: ImageryFixture) async throws {
        let (separable, gdal) = try await warpers(fixture)
        #expect(separable.separable != nil && gdal.separable == nil)
        for tile in Self.tiles {
            let coordinate = TileCoordinate(z: tile.z, x: tile.x, y: tile.y)
            for size in [256, 512] {
                let (ours, theirs) = try atLowestPriority {
                    (try separable.warp(coordinate, size: size).bytes, try gdal.warp(coordinate, size: size).bytes)
                }
                var alphaApart = 0, colourSamples = 0, colourTotal = 0, colourMost = 0
                for pixel in stride(from: 0, to: ours.count, by: 4) {
                    guard (ours[pixel + 3] == 0) == (theirs[pixel + 3] == 0) else { alphaApart += 1; continue }
                    guard ours[pixel + 3] != 0 else { continue }
                    for channel in 0 ..< 3 {
                        let apart = abs(Int(ours[pixel + channel]) - Int(theirs[pixel + channel]))
                        colourTotal += apart
                        colourMost = max(colourMost, apart)
                        colourSamples += 1
                    }
                }
                let meanApart = Double(colourTotal) / Double(max(1, colourSamples))
                let tileName = "\(fixture) \(tile.z)/\(tile.x)/\(tile.y)"
                let name = "\(tileName) at \(size) px"
                // Rounding only (a sample apart by 1 here and there), but where GDAL warps in chunks.
                let (mean, most) = Self.chunkedByGDAL.contains(tileName) ? (3.0, 24) : (0.01, 1)
                #expect(colourSamples > 0 || fixture == .mercator && tile.z < 3, "\(name): no data")
                #expect(meanApart <= mean && colourMost <= most, "\(name): colour apart by \(meanApart) on average, \(colourMost) at most")
                #expect(alphaApart == 0, "\(name): \(alphaApart) pixels have data in one only")
            }
        }
    }

    /// Rasters it cannot draw as GDAL would stay with GDAL: another coordinate system, a mask,
    /// an alpha band, nodata, 16-bit values, longitudes GDAL wraps past 180°, another resampling.
    @Test func otherRastersAreWarpedByGDAL() async throws {
        for fixture in [ImageryFixture.utm, .utmMask, .utm16, .worldNodata, .worldEast] {
            #expect(try await warpers(fixture).separable.separable == nil, "\(fixture)")
        }
        #expect(try await warpers(.world, resampling: .nearest).separable.separable == nil)
        #expect(try await warpers(.world, resampling: .cubic).separable.separable == nil)
    }
}
