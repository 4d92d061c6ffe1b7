import Testing
import TileHTTP
@testable import TileServer

/// The paths under `/wmts` and `/ogc`, the names they reserve, and the front page's links.
@Suite struct OGCRouteTests {
    let folder = TemporaryFolder()

    @Test(arguments: [
        (["wmts"], Route.wmts(.keyValue)),
        (["wmts", ""], .wmts(.keyValue)),
        (["wmts", "1.0.0", "WMTSCapabilities.xml"], .wmts(.capabilities)),
        (["wmts", "1.0.0", "world", "default", "GoogleMapsCompatible", "3", "2", "5.png"],
         .wmts(.tile(WMTSTileRequest(layer: "world", style: "default", format: .fileExtension("png"),
                                     tileMatrixSet: "GoogleMapsCompatible", tileMatrix: "3", tileRow: "2", tileCol: "5")))),
        (["ogc"], .ogcAPI(.landing)),
        (["ogc", ""], .ogcAPI(.landing)),
        (["ogc", "conformance"], .ogcAPI(.conformance)),
        (["ogc", "collections"], .ogcAPI(.collections)),
        (["ogc", "collections", "world"], .ogcAPI(.collection("world"))),
        (["ogc", "collections", "world", "map", "tiles"], .ogcAPI(.tilesets(layer: "world", vector: false))),
        (["ogc", "collections", "roads", "tiles"], .ogcAPI(.tilesets(layer: "roads", vector: true))),
        (["ogc", "collections", "world", "map", "tiles", "WebMercatorQuad"], .ogcAPI(.tileset(layer: "world", vector: false))),
        (["ogc", "collections", "world", "map", "tiles", "WebMercatorQuad", "3", "2", "5"],
         .ogcAPI(.tile(layer: "world", vector: false, tileMatrix: "3", tileRow: "2", tileCol: "5"))),
        (["ogc", "collections", "roads", "tiles", "WebMercatorQuad", "3", "2", "5"],
         .ogcAPI(.tile(layer: "roads", vector: true, tileMatrix: "3", tileRow: "2", tileCol: "5"))),
        (["ogc", "tileMatrixSets"], .ogcAPI(.tileMatrixSets)),
        (["ogc", "tileMatrixSets", "WebMercatorQuad"], .ogcAPI(.tileMatrixSet)),
    ])
    func matchesRoutes(_ segments: [String], _ route: Route) {
        #expect(Router.match(segments) == .route(route))
    }

    @Test(arguments: [
        ["wmts", "2.0.0", "WMTSCapabilities.xml"], ["wmts", "1.0.0", "world", "default", "GoogleMapsCompatible", "3", "2", "5"],
        ["wmts", "1.0.0", "world"], ["ogc", "collections", "World"], ["ogc", "collections", "world", "map"],
        ["ogc", "collections", "world", "map", "tiles", "WebMercatorQuad", "3", "2"], ["ogc", "tileMatrixSets", "WorldCRS84Quad"],
    ])
    func otherPathsAreNotFound(_ segments: [String]) {
        guard case .notFound = Router.match(segments) else {
            Issue.record("expected notFound for \(segments), got \(Router.match(segments))")
            return
        }
    }

    @Test(arguments: ["wmts", "ogc"])
    func namesAreReserved(_ name: String) throws {
        let yaml = "layers: [{name: \(name), source: {type: debug}}]"
        #expect {
            try Fixtures.configuration(yaml, in: folder)
        } throws: { error in
            (error as? ConfigurationError)?.message.contains("reserved") == true
        }
    }

    @Test func frontPageLinksEachLayersWMTSAndOGCAPIURLs() async throws {
        let page = try await WebFixtures.page(extraYAML: """
          - name: grid
            source: {type: debug}
        """, assets: WebAssets(), folder: folder)
        #expect(page.contains("<a href=\"http://localhost:8080/wmts/1.0.0/WMTSCapabilities.xml\">"))
        #expect(page.contains("<a href=\"/wmts/1.0.0/WMTSCapabilities.xml\">WMTS</a><a href=\"/ogc\">OGC API</a>"))
        for name in ["world", "grid"] {
            #expect(page.contains("<a href=\"http://localhost:8080/ogc/collections/\(name)/map/tiles/WebMercatorQuad\">"))
            #expect(page.contains("layer <code>\(name)</code>"))
        }
    }
}
