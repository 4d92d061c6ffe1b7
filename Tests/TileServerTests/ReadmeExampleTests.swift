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

// The README's "Adding a source" example, verbatim: a source kind read from YAML and built
// like the built-in ones.

/// `source: {type: solid, gray: 0…255, maxZoom: N}`: the same grey tile everywhere.
struct SolidSource: ConfiguredSource, Equatable {
    var gray: UInt8
    var maxZoom: Int
    var summary: String { "solid grey" }

    func build(in context: SourceBuildContext) throws -> BuiltSource {
        let color = RGBAColor(red: gray, green: gray, blue: gray)
        let image = RGBAImage(width: context.tileSize, height: context.tileSize, fill: color)
        return BuiltSource(source: .sync(SolidTiles(tile: Tile(data: try PNGEncoder().encode(image)))),
                           format: SourceFormat(.png, from: "a solid source (it draws PNG)"),
                           metadata: SourceMetadata(zoomRange: 0 ... maxZoom, attribution: "Solid Greys"))
    }
}

struct SolidTiles: SyncTileProvider {
    let tile: Tile
    func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult { .tile(tile) }
}

/// Reads the YAML; errors name the file, line and key (`node.error(…)`).
struct SolidKind: SourceKind {
    let type = "solid"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        let keys = try node.mapping(allowed: ["type", "gray", "maxZoom"])
        let gray = try keys["gray"]?.int(in: 0 ... 255) ?? 128
        return SolidSource(gray: UInt8(gray), maxZoom: try keys["maxZoom"]?.int(in: 0 ... 22) ?? 22)
    }
}

@Suite struct ReadmeSourceKindTests {
    let folder = TemporaryFolder()

    func registry() -> SourceRegistry {
        var registry = SourceRegistry()
        registry.register(SolidKind())
        return registry
    }

    @Test func customKindIsBuiltLikeABuiltInOne() async throws {
        let registry = registry()
        let configuration = try Configuration.parse(yaml: """
            layers:
              - {name: grey, source: {type: solid, gray: 200, maxZoom: 4}}
              - {name: both, source: {type: composite, layers: [{layer: grey}, {layer: dots}]}}
              - {name: dots, source: {type: debug}}
            """, file: folder.path + "/t.yml", registry: registry)
        let state = try ServiceState(configuration: configuration, registry: registry, logger: Fixtures.logger)
        let grey = try #require(state.layers["grey"])
        // The metadata filled the layer as an MBTiles file's would.
        #expect(grey.minZoom == 0 && grey.maxZoom == 4 && grey.settings.attribution == "Solid Greys" && grey.format == .png)
        #expect(LayerPreview(layer: grey).sourceKind == "solid grey")
        #expect(state.layers["both"]?.members.map(\.name) == ["grey", "dots"])
        let service = TileService(state: state, logger: Fixtures.logger)
        let tile = try await service.get("/grey/3/5/2.png")
        #expect(tile.status == .ok)
        #expect(try PNGDecoder.decode(tile.body).pixel(x: 9, y: 9) == RGBAColor(red: 200, green: 200, blue: 200))
        #expect(try await service.get("/grey/5/5/2.png").status == .notFound)
        #expect(try await service.get("/both/3/5/2.png").status == .ok)
        // An unchanged configuration keeps the layer over a reload; a changed one rebuilds it.
        let same = try service.reload(configuration, registry: registry)
        #expect(same.kept.contains("grey"))
        let changed = try Configuration.parse(yaml: "layers:\n  - {name: grey, source: {type: solid, gray: 10}}",
                                              file: folder.path + "/t.yml", registry: registry)
        #expect(try service.reload(changed, registry: registry).rebuilt == ["grey"])
    }

    @Test func customKindErrorsNameTheKey() {
        #expect {
            try Configuration.parse(yaml: "layers:\n  - {name: g, source: {type: solid, grey: 3}}",
                                    file: folder.path + "/t.yml", registry: registry())
        } throws: { error in
            let problem = error as? ConfigurationError
            return problem?.key == "layers[0].source.grey" && problem?.message.hasPrefix("unknown key") == true
        }
    }

    @Test func unknownTypeListsEveryRegisteredKind() {
        var registry = registry()
        registry.register("oddcolumns") { _, _ in .sync(OddColumns()) }
        #expect(registry.types == ["directory", "mbtiles", "pmtiles", "url", "debug", "composite", "geotiff", "oddcolumns", "solid"])
        #expect {
            try Configuration.parse(yaml: "layers:\n  - {name: g, source: {type: ftp}}", file: folder.path + "/t.yml",
                                    registry: registry)
        } throws: { error in
            (error as? ConfigurationError)?.message
                == "unknown source type \"ftp\" (known: directory, mbtiles, pmtiles, url, debug, composite, geotiff, oddcolumns, solid)"
        }
    }
}
