import Foundation
import Testing
import TileCodecs
import TileHTTP
@testable import TileProviders
@testable import TileServer
import TestThreads

/// Formats other than PNG, served from files written by independent implementations: GDAL's
/// vector and JPEG MBTiles, the reference `pmtiles` converter's archives; a vector tile we serve
/// decoded by the Python `mapbox-vector-tile` package.
@Suite(.ownThreads, .timeLimit(.minutes(3))) struct FormatInteropTests {
    let folder = TemporaryFolder()

    func service() async throws -> (TileService, String) {
        let files = try await FormatFixtures.folder()
        let service = try Fixtures.service(extraYAML: """
              - name: vector
                source: {type: mbtiles, path: \(files)/vector.mbtiles}
              - name: sat
                source: {type: mbtiles, path: \(files)/jpeg.mbtiles}
              - name: pmvector
                source: {type: pmtiles, path: \(files)/vector.pmtiles}
              - name: pmsat
                source: {type: pmtiles, path: \(files)/jpeg.pmtiles}
              - name: photo
                source: {type: directory, path: \(files)/webp, template: "{z}/{x}/{y}.webp"}
            """, folder: folder)
        return (service, files)
    }

    static let gzip: HTTPHeaders = [.acceptEncoding: "gzip, deflate, br"]

    @Test("GDAL's vector MBTiles: every tile byte for byte as sqlite3 reads it, gzip as stored, vector_layers in TileJSON")
    func gdalVectorMBTiles() async throws {
        let (service, files) = try await service()
        let tiles = try await FormatFixtures.sqliteTiles(files + "/vector.mbtiles")
        #expect(tiles.count >= 5)
        for tile in tiles {
            let (z, x, y) = (tile[0], tile[1], tile[2])
            let stored = try await FormatFixtures.sqliteTile(files + "/vector.mbtiles", z: z, x: x, y: y)
            #expect(stored.starts(with: [0x1F, 0x8B]), "GDAL stores gzip tiles")
            let response = try await service.get("/vector/\(z)/\(x)/\(y).pbf", headers: Self.gzip)
            #expect(response.status == .ok, "\(z)/\(x)/\(y)")
            #expect(Bool(response.body == stored), "\(z)/\(x)/\(y)")
            #expect(response.headers[.contentType] == "application/vnd.mapbox-vector-tile")
            #expect(response.headers[.contentEncoding] == "gzip")
            #expect(response.headers.values(.vary).contains("Accept-Encoding"))
            let mvt = try await service.get("/vector/\(z)/\(x)/\(y).mvt", headers: Self.gzip)
            #expect(Bool(mvt.body == stored))
        }
        #expect(try await service.get("/vector/0/0/0.png").status == .notFound)
        #expect(try await service.get("/vector/0/0/0@2x.pbf").status == .notFound)
        let document = try await service.get("/vector.json")
        let tileJSON = try #require(try JSONSerialization.jsonObject(with: Data(document.body)) as? [String: Any])
        #expect(tileJSON["format"] as? String == "pbf")
        #expect((tileJSON["tiles"] as? [String])?.first?.hasSuffix("/vector/{z}/{x}/{y}.pbf") == true)
        let layers = try #require(tileJSON["vector_layers"] as? [[String: Any]])
        #expect(layers.map { $0["id"] as? String } == ["places"])
        #expect((layers.first?["fields"] as? [String: String])?["name"] == "String")
    }

    @Test("Without gzip in Accept-Encoding (absent, or q=0) the tile is decompressed, under its own ETag; 304 for each")
    func decompressedForClientsWithoutGzip() async throws {
        let (service, files) = try await service()
        let stored = try await FormatFixtures.sqliteTile(files + "/vector.mbtiles", z: 0, x: 0, y: 0)
        let inflated = try Gzip.decompress(stored)
        #expect(inflated.first == 0x1A)
        let compressed = try await service.get("/vector/0/0/0.pbf", headers: Self.gzip)
        for headers: HTTPHeaders in [[:], [.acceptEncoding: "gzip;q=0, deflate"], [.acceptEncoding: "identity"],
                                     [.acceptEncoding: "*;q=1, gzip;q=0"]] {
            let plain = try await service.get("/vector/0/0/0.pbf", headers: headers)
            #expect(plain.status == .ok)
            #expect(Bool(plain.body == inflated), "\(headers)")
            #expect(plain.headers[.contentEncoding] == nil)
            #expect(plain.headers.values(.vary).contains("Accept-Encoding"))
            #expect(plain.headers[.eTag] != compressed.headers[.eTag])
        }
        for headers: HTTPHeaders in [[.acceptEncoding: "gzip;q=0.5"], [.acceptEncoding: "*"], [.acceptEncoding: "x-gzip"]] {
            #expect(try await service.get("/vector/0/0/0.pbf", headers: headers).headers[.contentEncoding] == "gzip", "\(headers)")
        }
        let plainTag = try #require(try await service.get("/vector/0/0/0.pbf").headers[.eTag])
        let gzipTag = try #require(compressed.headers[.eTag])
        #expect(try await service.get("/vector/0/0/0.pbf", headers: [.ifNoneMatch: plainTag]).status == .notModified)
        #expect(try await service.get("/vector/0/0/0.pbf", headers: [.ifNoneMatch: gzipTag, .acceptEncoding: "gzip"]).status
                == .notModified)
        // The other representation's tag does not validate this one.
        #expect(try await service.get("/vector/0/0/0.pbf", headers: [.ifNoneMatch: gzipTag]).status == .ok)
        // A memory hit answered on the event loop chooses the same way (nothing inflated there: made at the fill).
        let onLoop = try #require(try service.answerOnLoop("/vector/0/0/0.pbf"))
        #expect(Bool(onLoop.sentBody == inflated) && onLoop.headers[.eTag] == plainTag)
        let gzipOnLoop = try #require(try service.answerOnLoop("/vector/0/0/0.mvt", headers: [.acceptEncoding: "gzip"]))
        #expect(Bool(gzipOnLoop.sentBody == stored) && gzipOnLoop.headers[.contentEncoding] == "gzip")
    }

    @Test("A vector tile we serve decodes with mapbox-vector-tile: the GeoJSON's features and properties")
    func mapboxVectorTileDecodes() async throws {
        let (service, _) = try await service()
        for path in ["/vector/0/0/0.pbf", "/pmvector/0/0/0.pbf"] {
            let response = try await service.get(path)
            let tile = folder.path + "/tile.mvt"
            folder.write("tile.mvt", response.body)
            let output = try await FormatFixtures.python("""
                import json, sys, mapbox_vector_tile
                data = open(sys.argv[1], "rb").read()
                tile = mapbox_vector_tile.decode(data)
                print(json.dumps(sorted(f["properties"]["name"] for f in tile["places"]["features"])))
                """, [tile], packages: [("mapbox-vector-tile", "mapbox_vector_tile")])
            #expect(output.trimmingCharacters(in: .whitespacesAndNewlines) == #"["Box", "Equator", "Paris"]"#, "\(path)")
        }
    }

    @Test("GDAL's JPEG MBTiles: byte for byte, image/jpeg, .jpeg answers too, @2x derived as JPEG, .png is 404")
    func gdalJPEGMBTiles() async throws {
        let (service, files) = try await service()
        let tiles = try await FormatFixtures.sqliteTiles(files + "/jpeg.mbtiles")
        #expect(tiles.count == 5)
        for tile in tiles {
            let (z, x, y) = (tile[0], tile[1], tile[2])
            let stored = try await FormatFixtures.sqliteTile(files + "/jpeg.mbtiles", z: z, x: x, y: y)
            for ext in ["jpg", "jpeg"] {
                let response = try await service.get("/sat/\(z)/\(x)/\(y).\(ext)", headers: Self.gzip)
                #expect(response.status == .ok, "\(z)/\(x)/\(y)")
                #expect(Bool(response.body == stored), "\(z)/\(x)/\(y)")
                #expect(response.headers[.contentType] == "image/jpeg")
                #expect(response.headers[.contentEncoding] == nil && response.headers[.vary] == nil)
            }
        }
        #expect(try await service.get("/sat/0/0/0.png").status == .notFound)
        // @2x is derived from the four children with libjpeg-turbo, and encoded as JPEG.
        let retina = try await service.get("/sat/0/0/0@2x.jpg")
        #expect(retina.status == .ok && retina.headers[.contentType] == "image/jpeg")
        #expect(try ImageDecoder.size(of: retina.body) == (width: 512, height: 512))
        let document = try await service.get("/sat.json")
        let tileJSON = try #require(try JSONSerialization.jsonObject(with: Data(document.body)) as? [String: Any])
        #expect(tileJSON["format"] as? String == "jpg" && tileJSON["vector_layers"] == nil)
        #expect((tileJSON["tiles"] as? [String])?.first?.hasSuffix("/sat/{z}/{x}/{y}.jpg") == true)
    }

    @Test("Pillow's WebP tile from a directory: byte for byte, image/webp, sent from its file or the cache alike")
    func pillowWebP() async throws {
        let (service, files) = try await service()
        let stored = Array(try Data(contentsOf: URL(fileURLWithPath: files + "/webp/0/0/0.webp")))
        #expect(TileFormat.webp.matches(stored))
        for _ in 0 ..< 2 {
            let response = try await service.answerAsSent("/photo/0/0/0.webp")
            #expect(response.status == .ok && response.headers[.contentType] == "image/webp")
            #expect(Bool(response.sentBody == stored))
        }
        #expect(try await service.get("/photo/0/0/0.png").status == .notFound)
    }

    @Test("The reference pmtiles converter's archives (MVT gzip, JPEG): every tile byte for byte as its reader reads it")
    func referencePMTiles() async throws {
        let (service, files) = try await service()
        for (layer, dump, ext, type) in [("pmvector", "vector", "pbf", "application/vnd.mapbox-vector-tile"),
                                         ("pmsat", "jpeg", "jpg", "image/jpeg")] {
            let names = try FileManager.default.contentsOfDirectory(atPath: files + "/dump/" + dump)
            #expect(names.count >= 5)
            for name in names {
                let expected = Array(try Data(contentsOf: URL(fileURLWithPath: files + "/dump/\(dump)/\(name)")))
                let zxy = name.split(separator: "_").joined(separator: "/")
                let response = try await service.get("/\(layer)/\(zxy).\(ext)", headers: Self.gzip)
                #expect(response.status == .ok, "\(layer) \(zxy)")
                #expect(Bool(response.body == expected), "\(layer) \(zxy)")
                #expect(response.headers[.contentType] == type)
            }
        }
        let document = try await service.get("/pmvector.json")
        let tileJSON = try #require(try JSONSerialization.jsonObject(with: Data(document.body)) as? [String: Any])
        #expect((tileJSON["vector_layers"] as? [[String: Any]])?.first?["id"] as? String == "places")
        #expect(tileJSON["maxzoom"] as? Int == 2)
    }

    @Test("OGC: WMTS lists the JPEG layer as image/jpeg and not the vector ones; OGC API puts vector layers at /tiles")
    func ogcDocuments() async throws {
        let (service, _) = try await service()
        let capabilities = String(decoding: try await service.get("/wmts/1.0.0/WMTSCapabilities.xml").body, as: UTF8.self)
        #expect(capabilities.contains("<ows:Identifier>sat</ows:Identifier>"))
        #expect(capabilities.contains("<Format>image/jpeg</Format>"))
        #expect(capabilities.contains("/wmts/1.0.0/sat/default/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.jpg"))
        #expect(!capabilities.contains("<ows:Identifier>vector</ows:Identifier>"))
        let vector = try await service.get("/ogc/collections/vector/tiles/WebMercatorQuad")
        #expect(vector.status == .ok)
        #expect(String(decoding: vector.body, as: UTF8.self).contains("application/vnd.mapbox-vector-tile"))
        #expect(try await service.get("/ogc/collections/vector/map/tiles/WebMercatorQuad").status == .notFound)
        let tile = try await service.get("/ogc/collections/sat/map/tiles/WebMercatorQuad/0/0/0")
        #expect(tile.status == .ok && tile.headers[.contentType] == "image/jpeg")
        let vectorTile = try await service.get("/ogc/collections/vector/tiles/WebMercatorQuad/0/0/0", headers: Self.gzip)
        #expect(vectorTile.status == .ok && vectorTile.headers[.contentEncoding] == "gzip")
    }

    @Test("Front page: the JPEG layer previews as .jpg, with @2x; the vector layer shows its layers, zooms and a sample tile link")
    func frontPage() async throws {
        let (service, _) = try await service()
        let page = String(decoding: try await service.get("/").body, as: UTF8.self)
        func card(_ name: String) -> String? {
            guard let start = page.range(of: "id=\"layer-\(name)\"") else { return nil }
            let rest = page[start.lowerBound...]
            return String(rest[..<(rest.range(of: "</article>")?.lowerBound ?? rest.endIndex)])
        }
        let vectorCard = try #require(card("vector"))
        #expect(vectorCard.contains("preview vector") && vectorCard.contains("<code>places</code>"))
        #expect(vectorCard.contains("zoom 0–2"))
        #expect(vectorCard.contains("/vector/0/0/0.pbf\">sample tile</a>") && !vectorCard.contains("@2x"))
        let satCard = try #require(card("sat"))
        #expect(satCard.contains("/sat/{z}/{x}/{y}.jpg") && satCard.contains("@2x"), "JPEG @2x tiles are derived")
    }
}
