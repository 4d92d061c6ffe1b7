import Foundation
import Logging
import Testing
import TileHTTP
import TilePNG
import TileProviders
@testable import TileServer

/// The README's seed example, verbatim: an image on every odd column, "no tile" elsewhere.
struct OddColumns: SyncTileProvider {   // GMSSyncTileLayer.tileFor(x:y:zoom:)
    func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        guard x % 2 == 1 else { return .noTile }              // kGMSTileLayerNoTile: cacheable 404
        let image = RGBAImage(width: 256, height: 256, fill: RGBAColor(red: 0, green: 120, blue: 255, alpha: 128))
        do { return .tile(Tile(data: try PNGEncoder().encode(image))) }
        catch { return .unavailable(retryAfter: 5) }          // nil in the SDK: not available now
    }
}

@Suite struct ReadmeExampleTests {
    let folder = TemporaryFolder()

    @Test func oddColumnsProviderRegisteredFromConfiguration() async throws {
        var registry = SourceRegistry()
        registry.register("oddcolumns") { _, _ in .sync(OddColumns()) }
        let configuration = try Configuration.parse(yaml: "layers:\n  - {name: odd, source: {type: oddcolumns}}",
                                                    file: folder.path + "/t.yml", registry: registry)
        let service = TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: Fixtures.logger),
                                  logger: Fixtures.logger)
        let odd = try await service.get("/odd/3/5/2.png")
        #expect(odd.status == .ok)
        #expect(try PNGDecoder.decode(odd.body).pixel(x: 9, y: 9) == RGBAColor(red: 0, green: 120, blue: 255, alpha: 128))
        let even = try await service.get("/odd/3/4/2.png")
        #expect(even.status == .notFound)
        #expect(even.headers[.cacheControl] == "public, max-age=86400")
        // Unregistered, the same configuration is refused with the known types.
        #expect(throws: ConfigurationError.self) {
            try Configuration.parse(yaml: "layers:\n  - {name: odd, source: {type: oddcolumns}}", file: folder.path + "/t.yml")
        }
    }
}
