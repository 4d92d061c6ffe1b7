import Foundation
import Testing
import TileGeometry
import TileHTTP
@testable import TileServer

/// The front page (`GET /`): its cards, escaping, and both modes (Leaflet maps, still tiles).
@Suite struct WebPageTests {
    let folder = TemporaryFolder()

    static let layersYAML = """
      - name: relief
        source: {type: directory, path: \(Fixtures.worldFolder)}
        maxZoom: 3
        attribution: "<script>alert(\\"x\\")</script> & Co"
      - name: grid
        source: {type: debug}
        maxZoom: 22
    """

    @Test func listsEveryLayerWithItsTileJSONLink() async throws {
        let page = try await WebFixtures.page(extraYAML: Self.layersYAML, assets: WebAssets(), folder: folder)
        for name in ["world", "relief", "grid"] {
            #expect(page.contains("<a href=\"/\(name).json\">TileJSON</a>"))
            #expect(page.contains("id=\"layer-\(name)\""))
        }
        #expect(page.contains("http://localhost:8080/relief/{z}/{x}/{y}.png"))
        #expect(page.contains(">default</span>"))
        #expect(page.contains("generated (debug)"))
        #expect(page.contains("0–22"))
    }

    @Test func escapesHTMLInAttribution() async throws {
        let page = try await WebFixtures.page(extraYAML: Self.layersYAML, assets: WebAssets(), folder: folder)
        #expect(page.contains("&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt; &amp; Co"))
        #expect(!page.contains("<script>alert"))
    }

    @Test func withLeafletThePageDrawsMaps() async throws {
        let leaflet = WebFixtures.leafletFolder()
        let page = try await WebFixtures.page(extraYAML: Self.layersYAML, assets: WebAssets(leafletFolder: leaflet.path), folder: folder)
        #expect(page.contains("<script src=\"/assets/leaflet/leaflet.js\"></script>"))
        #expect(page.contains("<link rel=\"stylesheet\" href=\"/assets/leaflet/leaflet.css\">"))
        #expect(page.contains("data-tiles=\"/relief/{z}/{x}/{y}{r}.png\""))
        #expect(!page.contains("<img"))
        #expect(!page.contains("https://") && !page.contains("http://unpkg"))
    }

    @Test func withoutLeafletThePageShowsStillTiles() async throws {
        let missing = folder.path + "/no-leaflet-here"
        let page = try await WebFixtures.page(extraYAML: Self.layersYAML, assets: WebAssets(leafletFolder: missing), folder: folder)
        #expect(page.contains("<img src=\"/world/0/0/0.png\" srcset=\"/world/0/0/0@2x.png 2x\""))
        #expect(page.contains("<img src=\"/grid/0/0/0.png\""))
        #expect(!page.contains("leaflet.js"))
        #expect(!page.contains("leaflet.css"))
        #expect(!page.contains("<script src="))
        #expect(page.contains("libjs-leaflet"))
    }

    @Test func variablesGetASelectorAndTheDefaultQuery() async throws {
        let tiles = TemporaryFolder()
        let page = try await WebFixtures.page(extraYAML: """
          - name: plans
            source:
              type: url
              template: "file://\(tiles.path)/L{floor}_{z}_{x}_{y}.png"
              variables: {floor: {values: ["1", "2", "3"], default: "2"}}
            minZoom: 16
            maxZoom: 18
            bounds: [-0.1292, 51.5180, -0.1248, 51.5208]
        """, assets: WebAssets(), folder: folder)
        #expect(page.contains("<select data-variable=\"floor\"><option value=\"1\">1</option><option value=\"2\" selected>2</option>"))
        #expect(page.contains(">http://localhost:8080/plans/{z}/{x}/{y}.png?floor=2</code>"))
        #expect(page.contains("<img src=\"/plans/16/32744/21788.png?floor=2\""))
        #expect(page.contains("URL template · files"))
    }

    @Test func stillTileIsTheBoundsCentreAtMinimumZoom() async throws {
        let service = try WebFixtures.service(extraYAML: """
          - name: london
            source: {type: debug}
            minZoom: 16
            maxZoom: 18
            bounds: [-0.1292, 51.5180, -0.1248, 51.5208]
        """, assets: WebAssets(), folder: folder)
        let london = LayerPreview(layer: try #require(service.state.layers["london"]))
        #expect(london.stillTile == TileCoordinate(z: 16, x: 32744, y: 21788))
        #expect(!london.coversAllLongitudes)
        let world = LayerPreview(layer: try #require(service.state.layers["world"]))
        #expect(world.stillTile == TileCoordinate(z: 0, x: 0, y: 0))
        #expect(world.coversAllLongitudes)
    }

    @Test func pageIsHTMLAndRevalidates() async throws {
        let service = try WebFixtures.service(assets: WebAssets(), folder: folder)
        let response = try await service.get("/")
        #expect(response.status == .ok)
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        let etag = try #require(response.headers[.eTag])
        #expect(try await service.get("/", headers: [.ifNoneMatch: etag]).status == .notModified)
    }
}
