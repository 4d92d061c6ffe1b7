import Foundation
import Hashing
import Testing
import TileGeometry
import TileHTTP
import TilePNG
@testable import TileProviders
@testable import TileServer

/// The tile pipeline through the service: derived tiles, caching, coalescing, result mapping.
@Suite(.timeLimit(.minutes(1))) struct PipelineTests {
    let folder = TemporaryFolder()

    /// A service with one registered layer `test` over `provider`.
    func service(_ provider: CountingProvider, layerYAML: String = "", server: String = "") throws -> TileService {
        var registry = SourceRegistry()
        registry.register("counting") { _, _ in .sync(provider) }
        let yaml = """
        server: {port: 8080\(server)}
        layers:
          - name: test
            source: {type: counting}
            maxZoom: 5
        \(layerYAML)
        """
        return try Fixtures.service(yaml: yaml, registry: registry, folder: folder)
    }

    func decode(_ response: HTTPResponse) throws -> RGBAImage {
        try PNGDecoder.decode(response.body)
    }

    @Test func retinaIsTheFourChildrenPixelExact() async throws {
        let service = try Fixtures.service(folder: folder)
        let response = try await service.get("/world/2/1/1@2x.png")
        #expect(response.status == .ok)
        let image = try decode(response)
        #expect(image.width == 512 && image.height == 512)
        let children = try [(2, 2), (3, 2), (2, 3), (3, 3)].map { try PNGDecoder.decode(Fixtures.worldTile(3, $0.0, $0.1)) }
        for (index, child) in children.enumerated() {
            let (ox, oy) = (index % 2 * 256, index / 2 * 256)
            for (x, y) in [(0, 0), (255, 255), (17, 200), (128, 3)] {
                #expect(image.pixel(x: ox + x, y: oy + y) == child.pixel(x: x, y: y))
            }
        }
        #expect(response.headers[.eTag] == ContentHash.etag(of: response.body))
    }

    @Test func retinaAtMaxZoomIsTheParentUpscaled() async throws {
        let service = try Fixtures.service(folder: folder)
        let image = try decode(try await service.get("/world/3/4/2@2x.png"))
        let expected = try PNGDecoder.decode(Fixtures.worldTile(3, 4, 2)).upscaled2x()
        #expect(image == expected)
    }

    @Test func missingChildQuadrantIsTheParentQuadrantUpscaled() async throws {
        let provider = CountingProvider { x, y, zoom in
            zoom == 2 && x == 1 && y == 0 ? .noTile : CountingProvider.solid(x: x, y: y, zoom: zoom)
        }
        let image = try decode(try await service(provider).get("/test/1/0/0@2x.png"))
        let parent = try PNGDecoder.decode({ if case .tile(let t) = CountingProvider.solid(x: 0, y: 0, zoom: 1) { t.data } else { [] } }())
        #expect(image.pixel(x: 10, y: 10) == RGBAColor(red: 0, green: 0, blue: 20))  // child 2/0/0
        #expect(image.pixel(x: 300, y: 10) == parent.pixel(x: 150, y: 5))  // NE quadrant from the parent
        #expect(image.pixel(x: 300, y: 300) == RGBAColor(red: 1, green: 1, blue: 20))  // child 2/1/1
    }

    @Test func noChildrenAndNoParentIsNoTile() async throws {
        let provider = CountingProvider { _, _, _ in .noTile }
        #expect(try await service(provider).get("/test/1/0/0@2x.png").status == .notFound)
    }

    @Test func a512SourceServesNativeAt2xAndDownscales256() async throws {
        let provider = CountingProvider { x, y, zoom in CountingProvider.solid(x: x, y: y, zoom: zoom, size: 512) }
        let service = try service(provider, layerYAML: """
          - name: big
            source: {type: counting}
            tileSize: 512
        """)
        let native = try await service.get("/big/2/1/3@2x.png")
        guard case .tile(let source) = CountingProvider.solid(x: 1, y: 3, zoom: 2, size: 512) else { return }
        #expect(native.body == source.data)  // byte-for-byte, never re-encoded
        let small = try decode(try await service.get("/big/2/1/3.png"))
        #expect(small.width == 256)
        #expect(small.pixel(x: 7, y: 7) == RGBAColor(red: 1, green: 3, blue: 20))
    }

    @Test func transparentEmptyTileHasTheRequestedSize() async throws {
        let provider = CountingProvider { _, _, _ in .noTile }
        let service = try service(provider, layerYAML: """
          - name: clear
            source: {type: counting}
            emptyTile: transparent
        """)
        #expect(try decode(try await service.get("/clear/1/0/0.png")).width == 256)
        #expect(try decode(try await service.get("/clear/1/0/0@2x.png")).width == 512)
    }

    @Test func unavailableIs503NoStoreAndNotCached() async throws {
        let provider = CountingProvider { _, _, _ in .unavailable(retryAfter: 9) }
        let service = try service(provider)
        let response = try await service.get("/test/0/0/0.png")
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "9")
        #expect(response.headers[.cacheControl] == "no-store")
        _ = try await service.get("/test/0/0/0.png")
        #expect(provider.callCount == 2)
    }

    @Test func tilesAndNoTilesAreCached() async throws {
        let provider = CountingProvider { x, _, _ in x == 0 ? .noTile : CountingProvider.solid(x: x, y: 0, zoom: 1) }
        let service = try service(provider)
        for _ in 0 ..< 3 {
            #expect(try await service.get("/test/1/0/0.png").status == .notFound)
            #expect(try await service.get("/test/1/1/0.png").status == .ok)
        }
        #expect(provider.callCount == 2)
        #expect(service.cacheStatistics.hits >= 4)
    }

    @Test func providerErrorsAreNotCached() async throws {
        let provider = CountingProvider { _, _, _ in .tile(Tile(data: Array("not a png at all".utf8))) }
        let service = try service(provider)
        #expect(try await service.get("/test/0/0/0.png").status == .badGateway)
        #expect(try await service.get("/test/0/0/0.png").status == .badGateway)
        #expect(provider.callCount == 2)
    }

    @Test func memoryCachingCanBeTurnedOff() async throws {
        let provider = CountingProvider { x, y, z in CountingProvider.solid(x: x, y: y, zoom: z) }
        let service = try service(provider, layerYAML: """
          - name: uncached
            source: {type: counting}
            cache: {memory: false}
        """)
        _ = try await service.get("/uncached/0/0/0.png")
        _ = try await service.get("/uncached/0/0/0.png")
        #expect(provider.callCount == 2)
    }

    @Test func concurrentMissesMakeOneProviderCall() async throws {
        let provider = CountingProvider(delay: 0.2) { x, y, z in CountingProvider.solid(x: x, y: y, zoom: z) }
        let service = try service(provider)
        let request = try HTTPRequest(method: .get, target: "/test/3/1/2.png", headers: [.host: "localhost"])
        let bodies = await withTaskGroup(of: [UInt8].self) { group in
            for _ in 0 ..< 50 {
                group.addTask { await service.response(to: request).body }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(provider.callCount == 1)
        #expect(Set(bodies).count == 1)
        #expect(bodies.count == 50)
    }

    @Test func variablesSelectFilesAndAreChecked() async throws {
        for floor in 1 ... 2 {
            folder.write("plans/L\(floor)_1_0_0.png", Fixtures.worldTile(1, floor - 1, 0))
        }
        let service = try Fixtures.service(extraYAML: """
          - name: plans
            source:
              type: url
              template: "file://plans/L{floor}_{z}_{x}_{y}.png"
              variables: {floor: {values: ["1", "2"], default: "1"}}
            maxZoom: 1
        """, folder: folder)
        #expect(try await service.get("/plans/1/0/0.png").body == Fixtures.worldTile(1, 0, 0))
        #expect(try await service.get("/plans/1/0/0.png?floor=2").body == Fixtures.worldTile(1, 1, 0))
        #expect(try await service.get("/plans/1/0/0.png?floor=3").status == .badRequest)
        #expect(try await service.get("/plans/1/0/0.png?floor=..%2F..%2Fetc").status == .badRequest)
        #expect(try await service.get("/plans/1/0/0.png?other=1").status == .badRequest)
        #expect(try await service.get("/plans/1/1/1.png").status == .notFound)
        // A layer without variables ignores the query (cache busters pass).
        #expect(try await service.get("/world/0/0/0.png?v=123").status == .ok)
    }

    @Test func everyShippedLayerServes() async throws {
        let configuration = try Configuration.load(file: Fixtures.packageRoot + "/config/tilelayer.yml", environment: [:])
        let service = TileService(state: try ServiceState(configuration: configuration, logger: Fixtures.logger), logger: Fixtures.logger)
        for path in ["/0/0/0.png", "/bluemarble/2/1/1.png", "/debug/12/100/200.png", "/floorplans/17/65488/43577.png?floor=3",
                     "/overlay/1/0/0.png", "/world/1/0/0@2x.png", "/bluemarble/1/0/0@2x.png", "/debug/3/1/1@2x.png"] {
            let response = try await service.get(path)
            #expect(response.status == .ok, "\(path)")
            #expect(PNGSignature.matches(response.body), "\(path)")
        }
        let tileJSON = String(decoding: try await service.get("/bluemarble.json").body, as: UTF8.self)
        #expect(tileJSON.contains("\"maxzoom\":2"))  // from the MBTiles metadata
        for path in ["/imagery/2/1/1.jpg", "/imagery/2/1/1@2x.jpg"] {  // the GeoTIFF layer
            let response = try await service.get(path)
            #expect(response.status == .ok && response.sentBody.starts(with: [0xFF, 0xD8, 0xFF]), "\(path)")
        }
    }
}
