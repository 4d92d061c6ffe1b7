import Foundation
import Synchronization
import Testing
import TileHTTP
import TilePNG
@testable import TileLayerCLI
@testable import TileProviders
@testable import TileServer

/// Behaviour the suites did not pin down yet: composite order, `{s}` and `maxConcurrency`
/// through the configuration against a real upstream of ours, `/static` when a tile is not
/// available now, the transparent empty tile, and `clear-cache` against a real server.
@Suite(.timeLimit(.minutes(1))) struct CoverageTests {
    let folder = TemporaryFolder()

    @Test func compositeMembersListedOutOfZIndexOrderAreDrawnByZIndex() async throws {
        let red = try PNGEncoder().encode(RGBAImage(width: 256, height: 256, fill: RGBAColor(red: 255, green: 0, blue: 0)))
        let blue = try PNGEncoder().encode(RGBAImage(width: 256, height: 256, fill: RGBAColor(red: 0, green: 0, blue: 255)))
        folder.write("red/0/0/0.png", red)
        folder.write("blue/0/0/0.png", blue)
        let service = try Fixtures.service(extraYAML: """
          - {name: red, source: {type: directory, path: \(folder.path)/red}, maxZoom: 0}
          - {name: blue, source: {type: directory, path: \(folder.path)/blue}, maxZoom: 0}
          - name: stack
            source: {type: composite, layers: [{layer: blue, zIndex: 5}, {layer: red, zIndex: -1}]}
            maxZoom: 0
        """, folder: folder)
        let pixel = try PNGDecoder.decode(try await service.get("/stack/0/0/0.png").body).pixel(x: 10, y: 10)
        #expect(pixel?.blue == 255 && pixel?.red == 0)  // blue (zIndex 5) on top
    }

    /// `maxConcurrency: 2`: exactly two upstream requests at once. The upstream holds each
    /// answer until two are in flight together, so requests the client serialises would leave
    /// the most at one (and wait out the upstream's 10 s once), and a limit that is not kept lets
    /// more than two in while the first two are held.
    @Test func subdomainsAndMaxConcurrencyThroughTheConfiguration() async throws {
        let upstream = TestUpstream(delay: 0.2, gather: 2)
        let live = try LiveServer(responder: upstream)
        let service = try Fixtures.service(extraYAML: """
          - name: up
            source:
              type: url
              template: "http://127.0.0.1:\(live.port)/{s}/{z}/{x}/{y}.png"
              subdomains: [a, b, c]
              maxConcurrency: 2
              timeoutSeconds: 30
            maxZoom: 5
        """, folder: folder)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for x in 0 ..< 8 { group.addTask { try await service.get("/up/3/\(x)/1.png").status.code } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 8))
        let hosts = upstream.firstSegments.withLock { $0 }
        #expect(hosts.count == 8)
        #expect(Set(hosts).isSubset(of: ["a", "b", "c"]) && Set(hosts).count > 1)
        #expect(upstream.mostInFlight.load(ordering: .relaxed) == 2)
        await live.stop()
    }

    @Test func staticAnswers503WhenATileIsNotAvailableNow() async throws {
        var registry = SourceRegistry()
        registry.register("unavailable") { _, _ in .sync(HeaderMatrixTests.Unavailable()) }
        let configuration = try Configuration.parse(yaml: """
        layers:
          - {name: later, source: {type: unavailable}, maxZoom: 3}
        """, file: folder.path + "/t.yml", registry: registry)
        let service = TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: Fixtures.logger),
                                  logger: Fixtures.logger)
        let response = try await service.get("/static/later/0,0,1/64x64.png")
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "4")
        #expect(response.headers[.cacheControl] == "no-store")
    }

    @Test(arguments: ["/sparse/1/1/1.png", "/sparse/1/1/1@2x.png"])
    func aTransparentEmptyTileDecodesToAlphaZero(path: String) async throws {
        folder.write("sparse/1/0/0.png", Fixtures.worldTile(1, 0, 0))
        let service = try Fixtures.service(extraYAML: """
          - {name: sparse, source: {type: directory, path: \(folder.path)/sparse}, minZoom: 1, maxZoom: 1, emptyTile: transparent}
        """, folder: folder)
        let response = try await service.get(path)
        #expect(response.status == .ok)
        let image = try PNGDecoder.decode(response.body)
        #expect(image.width == (path.contains("@2x") ? 512 : 256))
        #expect(image.pixels.enumerated().allSatisfy { $0.offset % 4 != 3 || $0.element == 0 })
    }

    @Test func clearCacheAgainstARealServer() async throws {
        let provider = CountingProvider { x, y, zoom in CountingProvider.solid(x: x, y: y, zoom: zoom) }
        let service = try Fixtures.adminService(layer: "test", provider: provider, folder: folder)
        let live = try LiveServer(responder: service)
        _ = try await service.get("/test/1/0/0.png")
        let command = try ClearCacheCommand.parse(["--layer", "test", "--server", "http://127.0.0.1:\(live.port)", "--token", "s3cret"])
        let message = try await command.execute(configuration: nil, environment: [:], logger: Fixtures.logger)
        #expect(message.contains("cleared"))
        _ = try await service.get("/test/1/0/0.png")
        #expect(provider.callCount == 2)
        let refused = try ClearCacheCommand.parse(["--layer", "test", "--server", "http://127.0.0.1:\(live.port)", "--token", "nope"])
        await #expect(throws: (any Error).self) { try await refused.execute(configuration: nil, environment: [:], logger: Fixtures.logger) }
        await live.stop()
    }

    /// `--server` repeated: every replica clears, and each result is reported; one failing
    /// replica fails the command and its line says why.
    @Test func clearCacheFansOutToEveryReplica() async throws {
        let providers = (0 ..< 2).map { _ in CountingProvider { x, y, zoom in CountingProvider.solid(x: x, y: y, zoom: zoom) } }
        let services = try providers.map { try Fixtures.adminService(layer: "test", provider: $0, folder: folder) }
        let replicas = try services.map { try LiveServer(responder: $0) }
        for service in services { _ = try await service.get("/test/1/0/0.png") }
        let arguments = ["--layer", "test", "--token", "s3cret"] + replicas.flatMap { ["--server", "http://127.0.0.1:\($0.port)"] }
        let message = try await ClearCacheCommand.parse(arguments).execute(configuration: nil, environment: [:], logger: Fixtures.logger)
        #expect(message.split(separator: "\n").count == 2)
        for replica in replicas { #expect(message.contains("127.0.0.1:\(replica.port)")) }
        for service in services { _ = try await service.get("/test/1/0/0.png") }
        #expect(providers.map(\.callCount) == [2, 2], "both replicas fetched the tile again")

        await replicas[1].stop()
        let partial = try ClearCacheCommand.parse(arguments)
        do {
            _ = try await partial.execute(configuration: nil, environment: [:], logger: Fixtures.logger)
            Issue.record("a replica that is down must fail the command")
        } catch {
            let report = "\(error)"
            #expect(report.contains("cleared") && report.contains("127.0.0.1:\(replicas[1].port): failed"))
        }
        await replicas[0].stop()
    }

    @Test func readinessIs200UntilTheServiceDrains() async throws {
        let service = try Fixtures.service(folder: folder)
        let ready = try await service.get("/readyz")
        #expect(ready.status == .ok)
        #expect(ready.headers[.cacheControl] == "no-store")
        #expect(try await service.get("/healthz").status == .ok)
        service.beginDraining()
        let draining = try await service.get("/readyz")
        #expect(draining.status == .serviceUnavailable)
        #expect(try await service.get("/healthz").status == .ok, "liveness is not readiness")
    }

    /// `memoryBytes` bounds every tile byte kept in memory, the decoded tiles of views included.
    @Test(arguments: [16 << 10, 64 << 20, 1 << 30])
    func memoryBytesCountsTheDecodedTilesOfViews(memoryBytes: Int) throws {
        let service = try Fixtures.service(server: ", cache: {memoryBytes: \(memoryBytes)}", folder: folder)
        #expect(service.pipeline.cache.capacity + service.pipeline.decodedTiles.capacity == memoryBytes)
        #expect(service.pipeline.decodedTiles.capacity <= MemoryBudget.maxDecodedBytes)
    }
}
