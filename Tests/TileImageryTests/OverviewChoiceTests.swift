import Testing
@testable import TileImagery

/// `gdalwarp -ovr AUTO`'s rule: the coarsest overview still at least as fine as the tile.
struct OverviewChoiceTests {
    static let overviews = [(width: 512, height: 256), (width: 256, height: 128), (width: 128, height: 64)]

    @Test(arguments: [
        (0.5, -1), (1.0, -1), (1.99, -1), (2.0, 0), (3.9, 0), (4.0, 1), (8.0, 2), (100.0, 2),
    ])
    func level(ratio: Double, expected: Int) {
        #expect(OverviewChoice.level(ratio: ratio, width: 1024, overviews: Self.overviews) == expected)
    }

    @Test func noOverviews() {
        #expect(OverviewChoice.level(ratio: 50, width: 1024, overviews: []) == -1)
    }
}
