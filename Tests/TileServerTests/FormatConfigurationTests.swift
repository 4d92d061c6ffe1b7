import Foundation
import Testing
import TileCodecs
import TileHTTP
import TilePNG
@testable import TileProviders
@testable import TileServer

/// A layer's format: where it comes from, what contradicts it, what it cannot do, and bytes
/// that are not what the format says.
@Suite(.timeLimit(.minutes(2))) struct FormatConfigurationTests {
    let folder = TemporaryFolder()

    func service(_ yaml: String) throws -> TileService {
        try Fixtures.service(extraYAML: yaml, folder: folder)
    }

    func refused(_ yaml: String, saying parts: [String]) {
        #expect {
            _ = try service(yaml)
        } throws: { error in
            parts.allSatisfy { "\(error)".contains($0) }
        }
    }

    @Test("A format that contradicts the source's is a configuration error naming both")
    func contradictions() async throws {
        folder.write("sat/0/0/0.jpg", [0xFF, 0xD8, 0xFF, 0xE0, 0, 0])
        refused("""
              - name: sat
                format: png
                source: {type: directory, path: \(folder.path)/sat, template: "{z}/{x}/{y}.jpg"}
            """, saying: ["format png contradicts the path template \"{z}/{x}/{y}.jpg\", which says jpg", "layers[1].format"])
        let files = try await FormatFixtures.folder()
        refused("""
              - name: vector
                format: webp
                source: {type: mbtiles, path: \(files)/vector.mbtiles}
            """, saying: ["format webp contradicts the format metadata of \(files)/vector.mbtiles, which says pbf"])
        refused("""
              - name: up
                format: jpeg
                source: {type: url, template: "http://127.0.0.1:9/{z}/{x}/{y}.png"}
            """, saying: ["format jpg contradicts the template", "which says png"])
        refused("""
              - name: odd
                format: gif
                source: {type: debug}
            """, saying: ["\"gif\" is not one of png, jpg, webp, pbf"])
        // Agreeing is fine; a directory without a template takes the format's extension.
        let service = try service("""
              - name: sat
                format: jpeg
                source: {type: directory, path: \(folder.path)/sat}
            """)
        #expect(service.state.layers["sat"]?.format == .jpg)
    }

    @Test("What a format cannot do is refused at start-up: a vector composite member")
    func refusedAtStartUp() async throws {
        let files = try await FormatFixtures.folder()
        refused("""
              - name: vector
                source: {type: mbtiles, path: \(files)/vector.mbtiles}
              - name: both
                source: {type: composite, layers: [{layer: world}, {layer: vector}]}
            """, saying: ["layer \"vector\" (pbf) cannot be a composite member", "vector tiles"])
    }

    @Test("JPEG layers derive with libjpeg-turbo: a composite member, 512 px tiles, a transparent (white) empty tile, /static")
    func jpegLayersDerive() async throws {
        let files = try await FormatFixtures.folder()
        // A tile GDAL wrote (XYZ); the "gaps" folder holds a copy of it at 0/0/0 and nothing else.
        let tiles = try await FormatFixtures.sqliteTiles(files + "/jpeg.mbtiles")
        let (z, x, y) = (tiles[0][0], tiles[0][1], tiles[0][2])
        folder.write("gaps/0/0/0.jpg", try await FormatFixtures.sqliteTile(files + "/jpeg.mbtiles", z: z, x: x, y: y))
        let service = try service("""
              - name: sat
                quality: 60
                source: {type: mbtiles, path: \(files)/jpeg.mbtiles}
              - name: gaps
                emptyTile: transparent
                maxZoom: 1
                source: {type: directory, path: \(folder.path)/gaps, template: "{z}/{x}/{y}.jpg"}
              - name: big
                tileSize: 512
                source: {type: mbtiles, path: \(files)/jpeg.mbtiles}
              - name: both
                source: {type: composite, layers: [{layer: world}, {layer: sat, opacity: 0.5}]}
            """)
        let composite = try await service.get("/both/\(z)/\(x)/\(y).png")
        #expect(composite.status == .ok && composite.headers[.contentType] == "image/png")
        #expect(try ImageDecoder.size(of: composite.body) == (width: 256, height: 256))
        #expect(service.state.layers["big"] != nil, "a 512 px JPEG layer is accepted (its 256 px tiles are derived)")
        let empty = try await service.get("/gaps/1/1/1.jpg")
        #expect(empty.status == .ok && empty.headers[.contentType] == "image/jpeg")
        let white = try ImageDecoder.decode(empty.body)
        #expect(white.width == 256 && white.pixels.allSatisfy { $0 >= 250 }, "JPEG has no alpha: transparent is white")
        let view = try await service.get("/static/sat/0,0,\(z)/256x256.png")
        #expect(view.status == .ok && view.headers[.contentType] == "image/png")
    }

    @Test("/static of a vector layer is 400 naming why; a vector layer's transparent empty tile is 204")
    func staticAndEmptyTiles() async throws {
        let files = try await FormatFixtures.folder()
        let service = try service("""
              - name: vector
                emptyTile: transparent
                source: {type: mbtiles, path: \(files)/vector.mbtiles}
            """)
        let vector = try await service.get("/static/vector/0,0,1/256x256.png")
        #expect(vector.status == .badRequest)
        #expect(String(decoding: vector.body, as: UTF8.self).contains("vector tiles (pbf) cannot be drawn"))
        let empty = try await service.get("/vector/2/0/0.pbf")
        #expect(empty.status == .noContent && empty.body.isEmpty)
    }

    @Test("Bytes that are not the layer's format answer 502 naming the tile (pipeline and file paths), and are not cached")
    func wrongMagic() async throws {
        folder.write("sat/1/0/0.jpg", Fixtures.worldTile(1, 0, 0))
        let jpeg = try TileImageCodec.encode(RGBAImage(width: 256, height: 256, fill: .white), format: .jpg)
        folder.write("sat/1/1/0.jpg", jpeg)
        folder.write("sat/1/1/1.jpg", Array(jpeg.dropLast(100)))  // a JPEG cut short
        folder.write("vec/1/0/0.pbf", Fixtures.worldTile(1, 0, 0))
        folder.write("vec/1/1/0.pbf", [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3, 0xAA, 0xBB])  // gzip header, corrupt body
        folder.write("vec/1/0/1.pbf", [0x1A, 0x02, 0x78, 0x02])
        for memory in [true, false] {
            let service = try service("""
                  - name: sat
                    cache: {memory: \(memory)}
                    source: {type: directory, path: \(folder.path)/sat, template: "{z}/{x}/{y}.jpg"}
                  - name: vec
                    cache: {memory: \(memory)}
                    source: {type: directory, path: \(folder.path)/vec, template: "{z}/{x}/{y}.pbf"}
                """)
            for (path, text) in [("/sat/1/0/0.jpg", "1/0/0 is not a JPEG"), ("/vec/1/0/0.pbf", "1/0/0 is not a vector tile"),
                                 ("/vec/1/1/0.pbf", "gzip stream is corrupt"), ("/sat/1/1/1.jpg", "EOI marker")] {
                for _ in 0 ..< 2 {
                    let response = try await service.answerAsSent(path)
                    #expect(response.status == .badGateway, "\(path)")
                    #expect(String(decoding: response.body, as: UTF8.self).contains(text), "\(path)")
                }
            }
            let good = try await service.answerAsSent("/sat/1/1/0.jpg")
            #expect(good.status == .ok && good.headers[.contentType] == "image/jpeg")
            let raw = try await service.get("/vec/1/0/1.pbf", headers: [.acceptEncoding: "gzip"])
            #expect(raw.status == .ok && raw.body == [0x1A, 0x02, 0x78, 0x02] && raw.headers[.contentEncoding] == nil)
            // Stored bytes go out as stored, from the memory cache's arena or the process alike.
            #expect(try await service.answerAsSent("/vec/1/0/1.pbf").sentBody == [0x1A, 0x02, 0x78, 0x02])
            #expect(good.note == (memory ? "miss" : "bypass"))
        }
    }
}
