import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TileHTTP
@testable import TileServer

/// WMTS `GetTile` in both encodings: the XYZ tile's bytes and headers, and OWS exception reports.
@Suite struct WMTSTileTests {
    let folder = TemporaryFolder()

    static let kvp = "/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=world&STYLE=default&FORMAT=image/png"

    private func service() throws -> TileService {
        try OGCFixtures.service(folder: folder)
    }

    @Test(arguments: [
        "/wmts/1.0.0/world/default/GoogleMapsCompatible/2/1/3.png",
        kvp + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=2&TILEROW=1&TILECOL=3",
        "/wmts?service=WMTS&request=GetTile&version=1.0.0&layer=world&style=&format=image%2Fpng&tilematrixset=GoogleMapsCompatible&tilematrix=2&tilerow=1&tilecol=3",
    ])
    func tilesAreTheXYZTiles(_ target: String) async throws {
        let service = try service()
        let xyz = try await service.get("/world/2/3/1.png")
        let wmts = try await service.get(target)
        #expect(wmts.status == .ok)
        #expect(wmts.body == Fixtures.worldTile(2, 3, 1))
        for name in [HTTPHeaderName.contentType, .eTag, .cacheControl, .lastModified, .accessControlAllowOrigin] {
            #expect(wmts.headers[name] == xyz.headers[name], "\(name)")
        }
        let etag = try #require(wmts.headers[.eTag])
        let revalidated = try await service.get(target, headers: [HTTPHeaderName("If-None-Match"): etag])
        #expect(revalidated.status == .notModified && revalidated.body.isEmpty)
    }

    @Test func the512SetServesThe2xTiles() async throws {
        let service = try service()
        let retina = try await service.get("/world/1/1/0@2x.png")
        let rest = try await service.get("/wmts/1.0.0/world/default/GoogleMapsCompatible_512/1/0/1.png")
        let kvp = try await service.get(Self.kvp + "&TILEMATRIXSET=GoogleMapsCompatible_512&TILEMATRIX=1&TILEROW=0&TILECOL=1")
        #expect(retina.status == .ok && rest.body == retina.body && kvp.body == retina.body)
    }

    @Test func layerVariablesPassThroughKVP() async throws {
        let service = try Fixtures.service(extraYAML: """
          - name: floors
            source:
              type: url
              template: "file://\(Fixtures.packageRoot)/tiles/floorplans/L{floor}_{z}_{x}_{y}.png"
              variables: {floor: {values: ["1", "2", "3"], default: "1"}}
            minZoom: 16
            maxZoom: 16
        """, folder: folder)
        let target = "/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=floors&STYLE=default&FORMAT=image/png"
            + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=16&TILEROW=21788&TILECOL=32744"
        let xyz = try await service.get("/floors/16/32744/21788.png?floor=2")
        let wmts = try await service.get(target + "&floor=2")
        #expect(wmts.status == .ok && wmts.body == xyz.body)
        let firstFloor = try await service.get(target + "&floor=1")
        #expect(wmts.body != firstFloor.body)
        #expect(try await service.get(target + "&floor=9").status == .badRequest)
    }

    @Test(arguments: [
        ("/wmts", "MissingParameterValue", "SERVICE", 400),
        ("/wmts?SERVICE=WMS&REQUEST=GetCapabilities", "InvalidParameterValue", "SERVICE", 400),
        ("/wmts?SERVICE=WMTS", "MissingParameterValue", "REQUEST", 400),
        ("/wmts?SERVICE=WMTS&REQUEST=GetFeatureInfo", "OperationNotSupported", "REQUEST", 501),
        ("/wmts?SERVICE=WMTS&REQUEST=GetTile&VERSION=1.0.0&LAYER=world", "MissingParameterValue", "STYLE", 400),
        ("/wmts?SERVICE=WMTS&REQUEST=GetTile&LAYER=world", "MissingParameterValue", "VERSION", 400),
        (kvp.replacingOccurrences(of: "LAYER=world", with: "LAYER=nope") + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=0&TILEROW=0&TILECOL=0",
         "InvalidParameterValue", "Layer", 400),
        (kvp.replacingOccurrences(of: "image/png", with: "image/jpeg") + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=0&TILEROW=0&TILECOL=0",
         "InvalidParameterValue", "Format", 400),
        (kvp + "&TILEMATRIXSET=EPSG:4326&TILEMATRIX=0&TILEROW=0&TILECOL=0", "InvalidParameterValue", "TileMatrixSet", 400),
        (kvp + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=x&TILEROW=0&TILECOL=0", "InvalidParameterValue", "TileMatrix", 400),
        (kvp + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=4&TILEROW=0&TILECOL=0", "TileOutOfRange", "TileMatrix", 400),
        (kvp + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=1&TILEROW=2&TILECOL=0", "TileOutOfRange", "TileRow", 400),
        (kvp + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=1&TILEROW=0&TILECOL=2", "TileOutOfRange", "TileCol", 400),
        (kvp + "&TILEMATRIXSET=GoogleMapsCompatible&TILEMATRIX=1&TILEROW=-1&TILECOL=0", "InvalidParameterValue", "TileRow", 400),
        ("/wmts/1.0.0/world/default/GoogleMapsCompatible/1/0/0.jpg", "InvalidParameterValue", "Format", 400),
        ("/wmts/1.0.0/world/fancy/GoogleMapsCompatible/1/0/0.png", "InvalidParameterValue", "Style", 400),
        ("/wmts/1.0.0/plan/default/GoogleMapsCompatible/5/11/15.png", "TileOutOfRange", "TileRow", 400),
        ("/wmts/1.0.0/plan/default/GoogleMapsCompatible/5/10/16.png", "TileOutOfRange", "TileCol", 400),
    ])
    func refusalsAreExceptionReports(_ target: String, _ code: String, _ locator: String, _ status: Int) async throws {
        let response = try await service().get(target)
        #expect(response.status.code == status)
        #expect(response.headers[.contentType] == "application/xml")
        let root = try ParsedXML(response).root
        #expect(root.localName == "ExceptionReport" && root.uri == OGCNamespace.ows)
        let exception = try root.child("Exception", OGCNamespace.ows)
        #expect(exception.value("exceptionCode") == code)
        #expect(exception.value("locator") == locator)
        #expect(try !exception.text("ExceptionText", OGCNamespace.ows).isEmpty)
    }

    @Test func tilesInsideTheLimitsAreServed() async throws {
        #expect(try await service().get("/wmts/1.0.0/plan/default/GoogleMapsCompatible/5/10/15.png").status == .ok)
    }
}
