import Foundation
import Testing
import TileHTTP
@testable import TileServer

/// OGC API – Tiles 1.0 under `/ogc`: the documents (parsed by Foundation's JSON parser) and
/// the tiles (the XYZ tiles' bytes and headers).
@Suite struct OGCAPITilesTests {
    let folder = TemporaryFolder()

    private func service() throws -> TileService {
        try OGCFixtures.service(folder: folder)
    }

    private func json(_ target: String) async throws -> [String: Any] {
        let response = try await service().get(target)
        #expect(response.status == .ok, "\(target)")
        #expect(response.headers[.contentType] == "application/json")
        return try #require(JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
    }

    private func links(_ document: [String: Any]) -> [[String: Any]] {
        document["links"] as? [[String: Any]] ?? []
    }

    private func href(_ document: [String: Any], rel: String) -> String? {
        links(document).first { $0["rel"] as? String == rel }?["href"] as? String
    }

    @Test func landingPageLinksConformanceDataAndTilingSchemes() async throws {
        let landing = try await json("/ogc")
        #expect(href(landing, rel: "self") == "http://localhost:8080/ogc")
        #expect(href(landing, rel: "http://www.opengis.net/def/rel/ogc/1.0/conformance") == "http://localhost:8080/ogc/conformance")
        #expect(href(landing, rel: "http://www.opengis.net/def/rel/ogc/1.0/data") == "http://localhost:8080/ogc/collections")
        #expect(href(landing, rel: "http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes")
            == "http://localhost:8080/ogc/tileMatrixSets")
        let slash = try await service().get("/ogc/")
        #expect(try await service().get("/ogc").body == slash.body)
    }

    @Test func conformanceListsTheTilesClassesAndPNG() async throws {
        let classes = try #require(try await json("/ogc/conformance")["conformsTo"] as? [String])
        for name in ["core", "tileset", "tilesets-list", "geodata-tilesets", "png"] {
            #expect(classes.contains("http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/\(name)"), "\(name)")
        }
        #expect(!classes.contains { $0.hasSuffix("/conf/mvt") || $0.hasSuffix("/conf/jpeg") })
    }

    @Test func collectionsHaveExtentsAndTilesetLinks() async throws {
        let collections = try #require(try await json("/ogc/collections")["collections"] as? [[String: Any]])
        #expect(collections.map { $0["id"] as? String } == ["world", "plan"])
        let plan = try await json("/ogc/collections/plan")
        let spatial = (plan["extent"] as? [String: Any])?["spatial"] as? [String: Any]
        #expect(spatial?["bbox"] as? [[Double]] == [[-0.1292, 51.518, -0.1248, 51.5208]])
        #expect(plan["dataType"] as? String == "map")
        #expect(href(plan, rel: "http://www.opengis.net/def/rel/ogc/1.0/tilesets-map")
            == "http://localhost:8080/ogc/collections/plan/map/tiles")
        #expect(try await service().get("/ogc/collections/nope").status == .notFound)
    }

    @Test func tilesetHasLimitsAndATemplatedItemLink() async throws {
        let list = try await json("/ogc/collections/plan/map/tiles")
        let entry = try #require((list["tilesets"] as? [[String: Any]])?.first)
        #expect(entry["tileMatrixSetURI"] as? String == "http://www.opengis.net/def/tilematrixset/OGC/1.0/WebMercatorQuad")
        #expect(href(entry, rel: "self") == "http://localhost:8080/ogc/collections/plan/map/tiles/WebMercatorQuad")

        let tileset = try await json("/ogc/collections/plan/map/tiles/WebMercatorQuad")
        #expect(tileset["dataType"] as? String == "map")
        #expect(tileset["crs"] as? String == "http://www.opengis.net/def/crs/EPSG/0/3857")
        let limits = try #require(tileset["tileMatrixSetLimits"] as? [[String: Any]])
        #expect(limits.map { $0["tileMatrix"] as? String } == ["2", "3", "4", "5"])
        #expect(limits.last?["minTileRow"] as? Int == 10 && limits.last?["maxTileCol"] as? Int == 15)
        #expect(href(tileset, rel: "http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme")
            == "http://localhost:8080/ogc/tileMatrixSets/WebMercatorQuad")
        let item = try #require(links(tileset).first { $0["rel"] as? String == "item" })
        #expect(item["type"] as? String == "image/png" && item["templated"] as? Bool == true)
        #expect(item["href"] as? String
            == "http://localhost:8080/ogc/collections/plan/map/tiles/WebMercatorQuad/{tileMatrix}/{tileRow}/{tileCol}")
    }

    @Test func tileMatrixSetIsWebMercatorQuad() async throws {
        let set = try await json("/ogc/tileMatrixSets/WebMercatorQuad")
        #expect(set["id"] as? String == "WebMercatorQuad")
        #expect(set["crs"] as? String == "http://www.opengis.net/def/crs/EPSG/0/3857")
        let matrices = try #require(set["tileMatrices"] as? [[String: Any]])
        #expect(matrices.count == 25)
        #expect(matrices[0]["scaleDenominator"] as? Double == 559082264.0287178)
        // Linux Foundation's JSON parser may be off in the last digit: the text is checked too.
        #expect(abs((matrices[0]["cellSize"] as? Double ?? 0) - 156543.03392804097) < 1e-9)
        #expect(String(decoding: try await service().get("/ogc/tileMatrixSets/WebMercatorQuad").body, as: UTF8.self)
            .contains("\"cellSize\":156543.03392804097,"))
        #expect(matrices[3]["pointOfOrigin"] as? [Double] == [-20037508.3427892, 20037508.3427892])
        #expect(matrices[3]["matrixWidth"] as? Int == 8 && matrices[3]["tileWidth"] as? Int == 256)
        let list = try await json("/ogc/tileMatrixSets")
        #expect((list["tileMatrixSets"] as? [[String: Any]])?.map { $0["id"] as? String } == ["WebMercatorQuad"])
    }

    @Test func tilesAreTheXYZTiles() async throws {
        let service = try service()
        let xyz = try await service.get("/world/3/5/2.png")
        let ogc = try await service.get("/ogc/collections/world/map/tiles/WebMercatorQuad/3/2/5")
        #expect(ogc.status == .ok && ogc.body == Fixtures.worldTile(3, 5, 2))
        for name in [HTTPHeaderName.contentType, .eTag, .cacheControl, .lastModified] {
            #expect(ogc.headers[name] == xyz.headers[name], "\(name)")
        }
        let etag = try #require(ogc.headers[.eTag])
        let revalidated = try await service.get("/ogc/collections/world/map/tiles/WebMercatorQuad/3/2/5",
                                                headers: [HTTPHeaderName("If-None-Match"): etag])
        #expect(revalidated.status == .notModified)
    }

    @Test(arguments: [
        ("/ogc/collections/world/map/tiles/WebMercatorQuad/4/0/0", 404),   // beyond maxZoom
        ("/ogc/collections/world/map/tiles/WebMercatorQuad/1/0/2", 404),   // column outside the matrix (no wrap)
        ("/ogc/collections/plan/map/tiles/WebMercatorQuad/5/11/15", 404),  // outside the bounds' limits
        ("/ogc/collections/world/map/tiles/WebMercatorQuad/1/x/0", 400),
        ("/ogc/collections/world/tiles/WebMercatorQuad/0/0/0", 404),       // a raster layer has no vector tiles
        ("/ogc/collections/world/map/tiles/WorldCRS84Quad", 404),
        ("/ogc/collections/nope/map/tiles/WebMercatorQuad/0/0/0", 404),
        ("/ogc/nothing", 404),
    ])
    func badTileRequests(_ target: String, _ status: Int) async throws {
        #expect(try await service().get(target).status.code == status)
    }
}
