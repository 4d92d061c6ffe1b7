import Foundation

/// Rasters made at test time from the shipped world tiles with GDAL (`scripts/make-imagery.sh`),
/// each once per test process, in a temporary folder.
enum ImageryFixture: String, CaseIterable, Sendable {
    /// The shipped EPSG:4326 COG (JPEG), as it is in the repository.
    case world
    /// Europe in UTM zone 32N (EPSG:32632), DEFLATE, with an alpha band from a triangle cutline.
    case utm
    /// `utm` JPEG-compressed: its alpha band becomes a per-dataset mask (no nodata, no alpha band).
    case utmMask
    /// `world` with its finest overview only: zooms 0 and 1 read it downsampled 4 and 2 times.
    case worldOneOverview
    /// Western Europe in EPSG:3857, DEFLATE, 600 px wide: its edges cut tiles of zooms 4 to 8.
    case mercator
    /// Band 1 of `world` alone: one grey band.
    case worldGrey
    /// `world` with nodata 0.
    case worldNodata
    /// `world` placed at longitudes 0…360°.
    case worldEast
    /// Band 1 of `utm` as UInt16 (0…255 → 1000…4000), nodata 1000 where `utm` had none.
    case utm16

    /// The file, made when first asked for.
    var path: String {
        get async throws { try await Made.shared.path(of: self) }
    }

    private actor Made {
        static let shared = Made()
        private var folder: URL?
        private var made: [ImageryFixture: Task<String, any Error>] = [:]

        /// The fixture's file, made once however many tests ask at once.
        func path(of fixture: ImageryFixture) async throws -> String {
            if let making = made[fixture] { return try await making.value }
            let making = Task { try await make(fixture) }
            made[fixture] = making
            return try await making.value
        }

        private func make(_ fixture: ImageryFixture) async throws -> String {
            if fixture == .world { return ExternalTool.repositoryRoot.appendingPathComponent("tiles/world.tif").path }
            let folder = try self.folder ?? ExternalTool.temporaryFolder("tilelayer-imagery")
            self.folder = folder
            let path = folder.appendingPathComponent("\(fixture.rawValue).tif").path
            switch fixture {
            case .world:
                break
            case .utm:
                let cutline = folder.appendingPathComponent("triangle.geojson")
                try Data(#"{"type":"FeatureCollection","features":[{"type":"Feature","properties":{},"geometry":{"type":"Polygon","coordinates":[[[5,38],[17,40],[9,56],[5,38]]]}}]}"#.utf8)
                    .write(to: cutline)
                try await ExternalTool.run(["bash", "scripts/make-imagery.sh", path, "3", "EPSG:32632", "512", "DEFLATE",
                                            "-te", "0", "4000000", "1000000", "6500000", "-cutline", cutline.path, "-dstalpha"],
                                           package: "gdal-bin")
            case .worldOneOverview:
                let world = try await self.path(of: .world)
                try await ExternalTool.run(["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=JPEG", "-co", "OVERVIEW_COUNT=1",
                                            world, path], package: "gdal-bin")
            case .worldGrey:
                let world = try await self.path(of: .world)
                try await ExternalTool.run(["gdal_translate", "-q", "-b", "1", world, path], package: "gdal-bin")
            case .worldNodata:
                let world = try await self.path(of: .world)
                try await ExternalTool.run(["gdal_translate", "-q", "-a_nodata", "0", world, path], package: "gdal-bin")
            case .worldEast:
                let world = try await self.path(of: .world)
                try await ExternalTool.run(["gdal_translate", "-q", "-a_ullr", "0", "85.0511287798066", "360", "-85.1110712201934",
                                            world, path], package: "gdal-bin")
            case .mercator:
                try await ExternalTool.run(["bash", "scripts/make-imagery.sh", path, "3", "EPSG:3857", "600", "DEFLATE",
                                            "-te", "300000", "4000000", "2000000", "7000000"], package: "gdal-bin")
            case .utmMask:
                let utm = try await self.path(of: .utm)
                try await ExternalTool.run(["gdal_translate", "-q", "-of", "COG", "-co", "COMPRESS=JPEG", utm, path], package: "gdal-bin")
            case .utm16:
                let utm = try await self.path(of: .utm)
                try await ExternalTool.run(["gdal_translate", "-q", "-ot", "UInt16", "-b", "1", "-scale", "0", "255", "1000", "4000",
                                            "-a_nodata", "1000", "-of", "COG", "-co", "COMPRESS=DEFLATE", utm, path], package: "gdal-bin")
            }
            return path
        }
    }
}
