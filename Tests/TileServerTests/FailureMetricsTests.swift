import Foundation
import Testing
import TileHTTP
@testable import TileServer

/// Issue 56, failure 5: every failure path is counted in `/metrics` — disk-tier reads, writes
/// and corrupt files by kind (they were in the log only), and composite tiles among the renders
/// (they were counted as provider calls). Validation failures, shed requests and descriptor
/// pressure are counted too: see `DamagedUpstreamTests`, `LoadSheddingTests`, `DescriptorBudgetTests`.
@Suite(.timeLimit(.minutes(1))) struct FailureMetricsTests {
    let folder = TemporaryFolder()

    static func metric(_ service: TileService, _ name: String, _ labels: [String: String]) async throws -> Double {
        let page = try await service.get("/metrics")
        return try PrometheusExposition(String(decoding: page.body, as: UTF8.self)).sum(name, matching: labels)
    }

    /// A service with layer `test` over `provider` and a disk tier in `disk`.
    func service(_ provider: CountingProvider, disk: String) throws -> TileService {
        var registry = SourceRegistry()
        registry.register("counting") { _, _ in .sync(provider) }
        let yaml = """
        layers:
          - name: test
            source: {type: counting}
            maxZoom: 5
            cache: {memory: false, disk: \(disk)}
        """
        return try Fixtures.service(yaml: yaml, registry: registry, folder: folder)
    }

    static func provider() -> CountingProvider {
        CountingProvider { x, y, zoom in CountingProvider.solid(x: x, y: y, zoom: zoom) }
    }

    @Test func diskTierWriteFailuresAreCounted() async throws {
        folder.write("plain-file", [1, 2, 3])
        let service = try service(Self.provider(), disk: folder.path + "/plain-file/cache")
        #expect(try await service.get("/test/2/1/1.png").status == .ok)
        await service.waitForCacheWrites()
        #expect(try await Self.metric(service, "tilelayer_disk_failures_total", ["layer": "test", "kind": "write"]) == 1)
    }

    @Test func diskTierReadFailuresAndCorruptFilesAreCounted() async throws {
        let disk = folder.path + "/cache"
        // Where tile 2/1/1 would be read, a folder (EISDIR); where 2/1/2 would be, a damaged file.
        try FileManager.default.createDirectory(atPath: disk + "/test/2/1/1.tile", withIntermediateDirectories: true)
        folder.write("cache/test/2/1/2.tile", Array("not a record".utf8))
        let service = try service(Self.provider(), disk: disk)
        #expect(try await service.get("/test/2/1/2.png").status == .ok)
        #expect(try await Self.metric(service, "tilelayer_disk_failures_total", ["layer": "test", "kind": "corrupt"]) == 1)
        #expect(try await service.get("/test/2/1/1.png").status == .ok)
        #expect(try await Self.metric(service, "tilelayer_disk_failures_total", ["layer": "test", "kind": "read"]) == 1)
    }

    @Test func compositeTilesAreCountedAsRenders() async throws {
        let service = try Fixtures.service(extraYAML: """
              - name: debug
                source: {type: debug}
              - name: overlay
                source:
                  type: composite
                  layers: [{layer: world, zIndex: 0}, {layer: debug, zIndex: 1, opacity: 0.5}]
            """, folder: folder)
        #expect(try await service.get("/overlay/1/0/0.png").status == .ok)
        #expect(try await Self.metric(service, "tilelayer_renders_total", ["layer": "overlay"]) == 1)
        #expect(try await Self.metric(service, "tilelayer_provider_calls_total", ["layer": "overlay"]) == 0)
    }
}
