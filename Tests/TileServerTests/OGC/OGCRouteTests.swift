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

/// Where OGC requests are answered: documents and refusals on the event loop (pure), tiles as
/// the XYZ path does (a miss on the workers, the hit that follows on the loop).
@Suite struct OGCDispatchTests {
    let folder = TemporaryFolder()

    @Test(arguments: ["/wmts/1.0.0/WMTSCapabilities.xml", "/wmts?SERVICE=WMTS&REQUEST=GetCapabilities", "/wmts",
                      "/wmts/1.0.0/nope/default/GoogleMapsCompatible/0/0/0.png", "/ogc", "/ogc/conformance",
                      "/ogc/collections/world/map/tiles/WebMercatorQuad", "/ogc/tileMatrixSets/WebMercatorQuad",
                      "/ogc/collections/world/map/tiles/WebMercatorQuad/9/0/0"])
    func documentsAndRefusalsAnswerOnTheLoop(_ target: String) throws {
        #expect(try OGCFixtures.service(folder: folder).answerOnLoop(target) != nil)
    }

    @Test(arguments: ["/wmts/1.0.0/world/default/GoogleMapsCompatible/2/1/3.png",
                      "/ogc/collections/world/map/tiles/WebMercatorQuad/2/1/3"])
    func tilesMissAndHitAsXYZTilesDo(_ target: String) async throws {
        let service = try OGCFixtures.service(folder: folder)
        let miss = try await service.answerAsSent(target)
        #expect(miss.status == .ok && miss.note == "miss")
        let hit = try #require(try service.answerOnLoop(target))
        #expect(hit.note == "hit" && hit.sentBody == Fixtures.worldTile(2, 3, 1))
    }
}
