import Foundation
import Testing
import TileHTTP
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

    @Test("What a format cannot do is refused at start-up: vector composite members, JPEG 512 px, transparent JPEG")
    func refusedAtStartUp() async throws {
        let files = try await FormatFixtures.folder()
        refused("""
              - name: vector
                source: {type: mbtiles, path: \(files)/vector.mbtiles}
              - name: both
                source: {type: composite, layers: [{layer: world}, {layer: vector}]}
            """, saying: ["layer \"vector\" (pbf) cannot be a composite member", "vector tiles"])
        refused("""
              - name: sat
                source: {type: mbtiles, path: \(files)/jpeg.mbtiles}
              - name: both
                source: {type: composite, layers: [{layer: world}, {layer: sat}]}
            """, saying: ["layer \"sat\" (jpg) cannot be a composite member", "JPEG codec"])
        refused("""
              - name: sat
                tileSize: 512
                source: {type: mbtiles, path: \(files)/jpeg.mbtiles}
            """, saying: ["a jpg layer must have tileSize 256", "layers[1].tileSize"])
        refused("""
              - name: sat
                emptyTile: transparent
                source: {type: mbtiles, path: \(files)/jpeg.mbtiles}
            """, saying: ["cannot have emptyTile: transparent", "JPEG codec"])
    }

    @Test("/static of a vector or JPEG layer is 400 naming why; a vector layer's transparent empty tile is 204")
    func staticAndEmptyTiles() async throws {
        let files = try await FormatFixtures.folder()
        let service = try service("""
              - name: vector
                emptyTile: transparent
                source: {type: mbtiles, path: \(files)/vector.mbtiles}
              - name: sat
                source: {type: mbtiles, path: \(files)/jpeg.mbtiles}
            """)
        let vector = try await service.get("/static/vector/0,0,1/256x256.png")
        #expect(vector.status == .badRequest)
        #expect(String(decoding: vector.body, as: UTF8.self).contains("vector tiles (pbf) cannot be drawn"))
        let sat = try await service.get("/static/sat/0,0,1/256x256.png")
        #expect(sat.status == .badRequest)
        #expect(String(decoding: sat.body, as: UTF8.self).contains("JPEG codec"))
        let empty = try await service.get("/vector/2/0/0.pbf")
        #expect(empty.status == .noContent && empty.body.isEmpty)
    }

    @Test("Bytes that are not the layer's format answer 502 naming the tile (pipeline and file paths), and are not cached")
    func wrongMagic() async throws {
        folder.write("sat/1/0/0.jpg", Fixtures.worldTile(1, 0, 0))
        folder.write("sat/1/1/0.jpg", [0xFF, 0xD8, 0xFF, 0xDB, 1, 2, 3])
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
                                 ("/vec/1/1/0.pbf", "corrupt gzip")] {
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
            // A vector layer is never sent with sendfile (a stored tile may need decompressing).
            #expect(try await service.answerAsSent("/vec/1/0/1.pbf").file == nil)
            if !memory { #expect(good.file != nil, "a JPEG directory layer without a memory cache sends its files") }
        }
    }
}
