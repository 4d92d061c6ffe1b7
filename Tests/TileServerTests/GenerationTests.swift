import Foundation
import Synchronization
import Testing
import TileHTTP
import TilePNG
@testable import TileProviders
@testable import TileServer
import TestThreads

/// Cache keys carry generations: a composite follows its members through clears and reloads,
/// a rebuilt layer never meets the old one's tiles, and disk tiers follow their folders.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct GenerationTests {
    let folder = TemporaryFolder()
    let version = AdminTests.Version()

    /// A solid tile whose blue channel is the version, red and green the coordinate.
    func versioned() -> CountingProvider {
        let version = self.version
        return CountingProvider { x, y, _ in
            let color = RGBAColor(red: UInt8(x % 256), green: UInt8(y % 256), blue: UInt8(version.load()))
            return .tile(Tile(data: try! PNGEncoder().encode(RGBAImage(width: 256, height: 256, fill: color))))
        }
    }

    /// Folders `a` and `b` of one-tile pyramids (zoom 0), solid `blue` 10 and 20.
    func writeFolders() throws {
        for (name, blue) in [("a", 10), ("b", 20)] {
            let image = RGBAImage(width: 256, height: 256, fill: RGBAColor(red: 0, green: 0, blue: UInt8(blue)))
            folder.write("\(name)/0/0/0.png", try PNGEncoder().encode(image))
        }
    }

    func service(_ provider: CountingProvider, _ layers: String) throws -> TileService {
        var registry = SourceRegistry()
        registry.register("versioned") { _, _ in .sync(provider) }
        let yaml = "server: {adminToken: s3cret}\nlayers:\n" + layers
        return try Fixtures.service(yaml: yaml, registry: registry, folder: folder)
    }

    func blue(_ service: TileService, _ path: String) async throws -> UInt8? {
        try AdminTests.blue(try await service.get(path))
    }

    static let stack = """
      - {name: test, source: {type: versioned}, maxZoom: 4}
      - name: stack
        source: {type: composite, layers: [{layer: test}]}
        maxZoom: 4
    """

    @Test func clearingAMemberRetiresTheCompositesTiles() async throws {
        let service = try service(versioned(), Self.stack)
        #expect(try await blue(service, "/stack/2/1/1.png") == 1)
        version.store(2)
        #expect(try await AdminTests.post(service, "/admin/layers/test/clear-cache").status == .noContent)
        #expect(try await blue(service, "/stack/2/1/1.png") == 2)
    }

    @Test func aPartialClearOfAMemberClearsTheSameTilesOfTheComposite() async throws {
        let service = try service(versioned(), Self.stack)
        #expect(try await blue(service, "/stack/2/1/1.png") == 1)
        #expect(try await blue(service, "/stack/3/1/1.png") == 1)
        version.store(2)
        #expect(try await AdminTests.post(service, "/admin/layers/test/clear-cache?zoom=2").status == .noContent)
        #expect(try await blue(service, "/stack/2/1/1.png") == 2)
    }

    @Test func aReloadThatChangesAMembersSourceRebuildsTheComposite() async throws {
        try writeFolders()
        let service = try service(versioned(), """
          - {name: base, source: {type: directory, path: \(folder.path)/a}, maxZoom: 0}
          - {name: stack, source: {type: composite, layers: [{layer: base}]}, maxZoom: 0}
        """)
        #expect(try await blue(service, "/stack/0/0/0.png") == 10)
        let summary = try service.reload(try Configuration.parse(yaml: """
        layers:
          - {name: base, source: {type: directory, path: \(folder.path)/b}, maxZoom: 0}
          - {name: stack, source: {type: composite, layers: [{layer: base}]}, maxZoom: 0}
        """, file: folder.path + "/t.yml"))
        #expect(summary.rebuilt == ["base", "stack"])
        #expect(try await blue(service, "/stack/0/0/0.png") == 20)
    }

    /// Between the swap and the clear of a reload, the new layer must not see the old one's tiles:
    /// the swap alone (no clear) must do.
    @Test func aRebuiltLayerNeverMeetsTheOldLayersCachedTiles() async throws {
        try writeFolders()
        let service = try service(versioned(), "  - {name: base, source: {type: directory, path: \(folder.path)/a}, maxZoom: 0}\n")
        #expect(try await blue(service, "/base/0/0/0.png?x=1") == 10)
        #expect(try await blue(service, "/base/0/0/0.png") == 10)
        let configuration = try Configuration.parse(yaml: """
        layers:
          - {name: base, source: {type: directory, path: \(folder.path)/b}, maxZoom: 0}
        """, file: folder.path + "/t.yml")
        let layers = try LayerTable.build(from: configuration, logger: Fixtures.logger, reusing: service.state.layers)
        service.core.current.withLock { $0 = ServiceState(server: configuration.server, layers: layers) }
        #expect(try await blue(service, "/base/0/0/0.png") == 20)
    }

    @Test func aRebuiltLayerKeepsOneDiskTierPerFolderAndRemovedLayersReleaseTheirs() async throws {
        let layers = """
          - {name: test, source: {type: versioned}, maxZoom: 4, cache: {disk: \(folder.path)/cache}}
          - {name: gone, source: {type: versioned}, maxZoom: 4, cache: {disk: \(folder.path)/cache}}
        """
        let service = try service(versioned(), layers)
        _ = try await service.get("/test/1/0/0.png")
        _ = try await service.get("/gone/1/0/0.png")
        await service.waitForCacheWrites()
        let before = try #require(service.state.layers["test"]?.diskTier)
        var registry = SourceRegistry()
        let provider = versioned()
        registry.register("versioned") { _, _ in .sync(provider) }
        _ = try service.reload(try Configuration.parse(yaml: """
        layers:
          - {name: test, source: {type: versioned}, maxZoom: 5, cache: {disk: \(folder.path)/cache}}
        """, file: folder.path + "/t.yml", registry: registry), registry: registry)
        #expect(service.state.layers["test"]?.diskTier === before)
        #expect(service.pipeline.diskTiers.withLock { Array($0.keys) } == ["test"])
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cache/test/1/0/0.tile"))
    }

    @Test func aCompositeOf512PixelsServesBothSizesRight() async throws {
        let service = try service(versioned(), """
          - {name: test, source: {type: versioned}, maxZoom: 4}
          - {name: big, source: {type: debug}, tileSize: 512, maxZoom: 4}
          - name: stack
            source: {type: composite, layers: [{layer: test}, {layer: big, zIndex: 1, opacity: 0.5}]}
            tileSize: 512
            maxZoom: 4
        """)
        for (path, side) in [("/stack/2/1/1@2x.png", 512), ("/stack/2/1/1.png", 256)] {
            let response = try await service.get(path)
            #expect(response.status == .ok, "\(path)")
            let image = try PNGDecoder.decode(response.body)
            #expect(image.width == side && image.height == side, "\(path)")
        }
    }

    @Test func reloadsRunOneAtATime() async throws {
        let service = try service(versioned(), "  - {name: test, source: {type: versioned}, maxZoom: 4}\n")
        let step = AdminTests.Version()  // 1 queued, 2 running, 3 done
        service.reloads.async {
            step.store(2)
            Thread.sleep(forTimeInterval: 0.3)
            step.store(3)
        }
        while step.load() < 2 { try await Task.sleep(for: .milliseconds(1)) }
        _ = try service.reload(try Configuration.parse(yaml: "layers:\n  - {name: world, source: {type: debug}}\n",
                                                       file: folder.path + "/t.yml"))
        #expect(step.load() == 3)  // it waited for the reload before it
        #expect(service.state.layers["world"] != nil)
    }
}
