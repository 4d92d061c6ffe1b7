import Foundation
import Testing
import TileCodecs
import TileHTTP
import TileImagery
import TilePNG
import TileProviders
@testable import TileServer
@testable import TileLayerCLI

/// A `geotiff` layer (the shipped EPSG:4326 COG) served like any raster layer: TileJSON from the
/// raster, native 256 and @2x tiles, no tile outside, overzoom, other formats, composites,
/// `/static`, WMTS and OGC API – Tiles, the memory cache and clear-cache, seeding to MBTiles.
@Suite(.ownThreads, .timeLimit(.minutes(3)))
struct ImageryServiceTests {
    let folder = TemporaryFolder()
    static let raster = Fixtures.packageRoot + "/tiles/world.tif"

    func service(_ layers: String = "", server: String = ", adminToken: t0ken") throws -> TileService {
        try Fixtures.service(extraYAML: """
          - name: imagery
            source: {type: geotiff, path: \(Self.raster)}
          - name: deep
            source: {type: geotiff, path: \(Self.raster), resampling: cubic}
            maxZoom: 6
            emptyTile: 204
          - name: photo
            source: {type: geotiff, path: \(Self.raster)}
            format: jpg
          - name: rough
            source: {type: geotiff, path: \(Self.raster)}
            format: jpg
            quality: 10
          - name: stack
            source: {type: composite, layers: [{layer: world, zIndex: 0}, {layer: imagery, zIndex: 1, opacity: 0.5}]}
            maxZoom: 3
        \(layers)
        """, server: server, folder: folder)
    }

    @Test func tileJSONComesFromTheRaster() async throws {
        let json = try JSONSerialization.jsonObject(with: Data(try await service().get("/imagery.json").body)) as! [String: Any]
        #expect(json["minzoom"] as? Int == 0 && json["maxzoom"] as? Int == 3)
        let bounds = try #require(json["bounds"] as? [Double])
        #expect(abs(bounds[0] + 180) < 1e-6 && abs(bounds[2] - 180) < 1e-6 && abs(bounds[3] - 85.0511) < 1e-3)
        #expect((json["center"] as? [Double])?.count == 3)
        let deep = try JSONSerialization.jsonObject(with: Data(try await service().get("/deep.json").body)) as! [String: Any]
        #expect(deep["maxzoom"] as? Int == 6)
    }

    @Test func retinaIsDrawnAtTwiceTheResolutionNotFromChildren() async throws {
        let service = try service()
        let small = try await service.get("/imagery/2/1/1.png"), large = try await service.get("/imagery/2/1/1@2x.png")
        #expect(small.status == .ok && large.status == .ok)
        #expect(try PNGDecoder.decode(small.sentBody).width == 256)
        #expect(try PNGDecoder.decode(large.sentBody).width == 512)
        // Exactly what the provider draws at scale 2 (not a mosaic of four children re-encoded).
        let provider = try GeoTIFFTileProvider(location: .file(Self.raster))
        guard case .tile(let direct) = try provider.tile(for: TileRequest(tile: .init(z: 2, x: 1, y: 1), scale: 2)) else {
            Issue.record("no tile"); return
        }
        #expect(large.sentBody == direct.data)
    }

    @Test func overzoomFormatsAndNoTile() async throws {
        let service = try service()
        #expect(try await service.get("/deep/6/33/22.png").status == .ok)
        #expect(try await service.get("/imagery/6/33/22.png").status == .notFound)  // above the native maxzoom 3
        let jpeg = try await service.get("/photo/1/0/0.jpg")
        #expect(jpeg.status == .ok && jpeg.sentBody.starts(with: [0xFF, 0xD8, 0xFF]))
        // The layer's `quality` reaches the encoder: quality 10 is a fraction of the default's bytes.
        let rough = try await service.get("/rough/1/0/0.jpg")
        #expect(rough.status == .ok && rough.sentBody.count * 2 < jpeg.sentBody.count)
    }

    @Test func compositeStaticAndOGCDrawTheLayer() async throws {
        let service = try service()
        let stacked = try await service.get("/stack/1/0/0.png")
        #expect(stacked.status == .ok)
        let view = try await service.get("/static/imagery/10,45,2/300x200@2x.png")
        #expect(view.status == .ok)
        #expect(try PNGDecoder.decode(view.sentBody).width == 600)
        let xyz = try await service.get("/imagery/3/4/2.png").sentBody
        #expect(try await service.get("/wmts/1.0.0/imagery/default/GoogleMapsCompatible/3/2/4.png").sentBody == xyz)
        #expect(try await service.get("/ogc/collections/imagery/map/tiles/WebMercatorQuad/3/2/4").sentBody == xyz)
        let retina = try await service.get("/imagery/3/4/2@2x.png").sentBody
        #expect(try await service.get("/wmts/1.0.0/imagery/default/GoogleMapsCompatible_512/3/2/4.png").sentBody == retina)
    }

    @Test func cachedTilesAndClearCache() async throws {
        let service = try service()
        let first = try await service.get("/imagery/2/2/1.png")
        let again = try await service.get("/imagery/2/2/1.png")
        #expect(first.sentBody == again.sentBody && first.headers[.eTag] == again.headers[.eTag])
        var auth = HTTPHeaders()
        auth.add(.authorization, "Bearer t0ken")
        #expect(try await service.get("/admin/layers/imagery/clear-cache", method: .post, headers: auth).status == .noContent)
        #expect(try await service.get("/imagery/2/2/1.png").sentBody == first.sentBody)
    }

    @Test func seedWritesAnMBTilesOfTheLayer() async throws {
        let out = folder.path + "/imagery.mbtiles"
        try Data("""
        layers:
          - name: imagery
            source: {type: geotiff, path: \(Self.raster)}
        """.utf8).write(to: URL(fileURLWithPath: folder.path + "/seed.yml"))
        let configuration = try Configuration.load(file: folder.path + "/seed.yml")
        let command = try SeedCommand.parse(["--layer", "imagery", "--zoom", "0-2", "--to", out])
        let summary = try await command.execute(configuration: configuration, logger: Fixtures.logger,
                                                progress: SeedProgress(total: 21, isTerminal: false, interval: 0, write: { _ in }))
        #expect(summary.tiles == 21 && summary.errors == 0)
        let written = try MBTilesTileProvider(path: out)
        guard case .tile(let tile) = try written.tileFor(x: 1, y: 1, zoom: 2) else { Issue.record("no 2/1/1"); return }
        #expect(tile.data == (try await service().get("/imagery/2/1/1.png").sentBody))
    }
}
