import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing
import TileHTTP
@testable import TileServer

/// The WMTS 1.0.0 capabilities, parsed by libxml2 and checked element by element.
@Suite struct WMTSCapabilitiesTests {
    let folder = TemporaryFolder()

    private func capabilities(_ target: String = "/wmts/1.0.0/WMTSCapabilities.xml", host: String = "localhost:8080",
                              server: String = "") async throws -> (HTTPResponse, XMLElement) {
        let service = try OGCFixtures.service(server: server, folder: folder)
        let response = try await service.get(target, headers: [.host: host])
        return (response, try ParsedXML(response).root)
    }

    private func layer(_ root: XMLElement, _ name: String) throws -> XMLElement {
        let layers = try root.child("Contents").children("Layer")
        return try #require(layers.first { (try? $0.text("Identifier", OGCNamespace.ows)) == name })
    }

    @Test func bothEncodingsAnswerTheSameDocument() async throws {
        let (rest, root) = try await capabilities()
        #expect(rest.status == .ok)
        #expect(rest.headers[.contentType] == "application/xml")
        #expect(rest.headers[.accessControlAllowOrigin] == "*")
        #expect(root.localName == "Capabilities" && root.uri == OGCNamespace.wmts)
        #expect(root.value("version") == "1.0.0")
        let (kvp, _) = try await capabilities("/wmts?SERVICE=WMTS&REQUEST=GetCapabilities")
        #expect(kvp.body == rest.body)
        let (lowerCase, _) = try await capabilities("/wmts?service=wmts&request=getcapabilities&version=1.0.0")
        #expect(lowerCase.body == rest.body)
    }

    @Test func operationsListBothEncodings() async throws {
        let (_, root) = try await capabilities()
        let operations = try root.child("OperationsMetadata", OGCNamespace.ows).children("Operation", OGCNamespace.ows)
        #expect(operations.map { $0.value("name") } == ["GetCapabilities", "GetTile"])
        for operation in operations {
            let gets = try operation.child("DCP", OGCNamespace.ows).child("HTTP", OGCNamespace.ows).children("Get", OGCNamespace.ows)
            let encodings = gets.map { get in
                get.children("Constraint", OGCNamespace.ows).first?.children("AllowedValues", OGCNamespace.ows).first?
                    .children("Value", OGCNamespace.ows).first?.stringValue
            }
            #expect(encodings == ["KVP", "RESTful"])
            #expect(gets.first?.value("xlink:href") == "http://localhost:8080/wmts?")
        }
    }

    @Test func aLayerHasBoundsStyleFormatLimitsAndResourceURL() async throws {
        let (_, root) = try await capabilities()
        let plan = try layer(root, "plan")
        let box = try plan.child("WGS84BoundingBox", OGCNamespace.ows)
        #expect(try box.text("LowerCorner", OGCNamespace.ows) == "-0.1292 51.518")
        #expect(try box.text("UpperCorner", OGCNamespace.ows) == "-0.1248 51.5208")
        #expect(try plan.text("Abstract", OGCNamespace.ows) == "Floors <1> & \"2\"")  // escaped, read back
        let style = try plan.child("Style")
        let styleName = try style.text("Identifier", OGCNamespace.ows)
        #expect(style.value("isDefault") == "true" && styleName == "default")
        #expect(try plan.text("Format") == "image/png")
        let links = plan.children("TileMatrixSetLink")
        #expect(try links.map { try $0.text("TileMatrixSet") } == ["GoogleMapsCompatible", "GoogleMapsCompatible_512"])
        let limits = try links[0].child("TileMatrixSetLimits").children("TileMatrixLimits")
        #expect(try limits.map { try $0.text("TileMatrix") } == ["2", "3", "4", "5"])
        // Zoom 5: the box lies in column 15, row 10 (x = (lon + 180) / 360 · 32).
        let five = limits[3]
        #expect(try [five.text("MinTileRow"), five.text("MaxTileRow"), five.text("MinTileCol"), five.text("MaxTileCol")]
            == ["10", "10", "15", "15"])
        let resource = try plan.child("ResourceURL")
        let format = try plan.text("Format")
        #expect(resource.value("format") == format)
        #expect(resource.value("resourceType") == "tile")
        #expect(resource.value("template")
            == "http://localhost:8080/wmts/1.0.0/plan/default/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.png")
    }

    @Test func worldLayerSpansEveryTile() async throws {
        let (_, root) = try await capabilities()
        let world = try layer(root, "world")
        let box = try world.child("WGS84BoundingBox", OGCNamespace.ows)
        #expect(try box.text("LowerCorner", OGCNamespace.ows) == "-180.0 -85.05112878")
        let limits = try world.child("TileMatrixSetLink").child("TileMatrixSetLimits").children("TileMatrixLimits")
        #expect(try limits.last.map { try [$0.text("TileMatrix"), $0.text("MaxTileRow"), $0.text("MaxTileCol")] } == ["3", "7", "7"])
    }

    @Test func tileMatrixSetsAreGoogleMapsCompatible() async throws {
        let (_, root) = try await capabilities()
        let sets = try root.child("Contents").children("TileMatrixSet")
        #expect(try sets.map { try $0.text("Identifier", OGCNamespace.ows) } == ["GoogleMapsCompatible", "GoogleMapsCompatible_512"])
        for (set, tileSize, shift) in [(sets[0], "256", 0.0), (sets[1], "512", 1.0)] {
            #expect(try set.text("SupportedCRS", OGCNamespace.ows) == "urn:ogc:def:crs:EPSG::3857")
            let matrices = set.children("TileMatrix")
            #expect(matrices.count == 6)  // 0 … 5, the deepest layer's maxZoom
            for (zoom, matrix) in matrices.enumerated() {
                #expect(try matrix.text("Identifier", OGCNamespace.ows) == String(zoom))
                let scale = try #require(Double(try matrix.text("ScaleDenominator")))
                #expect(scale == 559082264.0287178 / pow(2, Double(zoom) + shift))  // full precision
                #expect(try matrix.text("TopLeftCorner") == "-20037508.3427892 20037508.3427892")
                #expect(try matrix.text("TileWidth") == tileSize && matrix.text("TileHeight") == tileSize)
                #expect(try matrix.text("MatrixWidth") == String(1 << zoom) && matrix.text("MatrixHeight") == String(1 << zoom))
            }
        }
        #expect(try sets[0].text("WellKnownScaleSet") == "urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible")
        #expect(sets[1].children("WellKnownScaleSet").isEmpty)
        #expect(try sets[0].children("TileMatrix")[0].text("ScaleDenominator") == "559082264.0287178")
    }

    @Test func urlsFollowTheTileJSONRules() async throws {
        let (_, untrusted) = try await capabilities(host: "evil.example")
        #expect(try layer(untrusted, "world").child("ResourceURL").value("template")?.hasPrefix("http://localhost:8080/wmts/") == true)
        let (_, published) = try await capabilities(server: ", publicURL: \"https://tiles.example.org\"")
        #expect(try layer(published, "world").child("ResourceURL").value("template")?.hasPrefix("https://tiles.example.org/wmts/") == true)
    }
}
