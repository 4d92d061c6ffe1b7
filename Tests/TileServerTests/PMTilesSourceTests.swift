import Foundation
import Testing
import TileHTTP
@testable import TileProviders
@testable import TileServer
import TestThreads

/// A `pmtiles` source over archives the reference Python writer made from the shipped world pyramid.
@Suite(.ownThreads, .timeLimit(.minutes(2))) struct PMTilesSourceTests {
    let folder = TemporaryFolder()

    /// A service with the world layer and a `pm` layer over `archive`.
    func service(_ archive: String) throws -> TileService {
        try Fixtures.service(extraYAML: """
              - name: pm
                source: {type: pmtiles, path: \(archive)}
            """, folder: folder)
    }

    /// Every tile of the pyramid.
    static let worldTiles: [(Int, Int, Int)] = (0 ... 3).flatMap { z in
        (0 ..< 1 << z).flatMap { x in (0 ..< 1 << z).map { y in (z, x, y) } }
    }

    @Test("Served byte-for-byte equal to the source PNGs, with and without leaf directories", arguments: [nil, 40])
    func byteForByte(maxRootBytes: Int?) async throws {
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive, maxRootBytes: maxRootBytes)
        let service = try service(archive)
        for (z, x, y) in Self.worldTiles {
            let response = try await service.get("/pm/\(z)/\(x)/\(y).png")
            #expect(response.status == .ok, "\(z)/\(x)/\(y)")
            #expect(response.body == Fixtures.worldTile(z, x, y), "\(z)/\(x)/\(y)")
        }
        #expect(try await service.get("/pm/4/0/0.png").status == .notFound)
    }

    @Test("Header and metadata fill the layer: zoom range, bounds, center, attribution")
    func metadata() async throws {
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive)
        let provider = try PMTilesTileProvider(path: archive)
        #expect(provider.header.tileType == .png && provider.header.tileCompression == .none)
        #expect(provider.header.minZoom == 0 && provider.header.maxZoom == 3)
        #expect(provider.metadata.attribution == "Tom Patterson")
        #expect(provider.metadata.name == "World")
        #expect(provider.metadata.center?.zoom == 1)
        #expect(abs((provider.metadata.bounds?.north ?? 0) - 85.0511287) < 1e-7)
        let configuration = try Fixtures.configuration("""
            server: {port: 8080}
            layers:
              - name: pm
                source: {type: pmtiles, path: \(archive)}
            """, in: folder)
        let layer = try LayerBuilder(key: "layers[0]", file: "t.yml", registry: SourceRegistry(), logger: Fixtures.logger)
            .build(configuration.layers[0], members: [:])
        #expect(layer.settings.minZoom == 0 && layer.settings.maxZoom == 3)
        #expect(layer.settings.attribution == "Tom Patterson")
        #expect(layer.settings.description == "Natural Earth world pyramid")
        let document = try await service(archive).get("/pm.json")
        let tileJSON = try #require(try JSONSerialization.jsonObject(with: Data(document.body)) as? [String: Any])
        #expect(tileJSON["maxzoom"] as? Int == 3 && tileJSON["attribution"] as? String == "Tom Patterson")
        let bounds = try #require(tileJSON["bounds"] as? [Double])
        #expect(bounds.count == 4 && abs(bounds[3] - 85.0511287) < 1e-6)
    }

    @Test("A truncated archive answers 502 naming the tile")
    func truncated() async throws {
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive)
        let service = try service(archive)
        let header = try PMTilesHeader(Array(try Data(contentsOf: URL(fileURLWithPath: archive)).prefix(127)))
        #expect(truncate(archive, off_t(header.tileData.offset + 100)) == 0)
        let response = try await service.get("/pm/3/5/2.png")
        #expect(response.status == .badGateway)
        #expect(String(decoding: response.body, as: UTF8.self).contains("3/5/2"))
    }

    @Test("A corrupt leaf directory answers 502 naming the tile")
    func corruptDirectory() async throws {
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive, maxRootBytes: 40)
        let service = try service(archive)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: archive)))
        let header = try PMTilesHeader(Array(bytes.prefix(127)))
        #expect(header.leafDirectories.length > 0)
        let leaves = Int(header.leafDirectories.offset) ..< Int(header.leafDirectories.offset + header.leafDirectories.length)
        for index in leaves { bytes[index] = 0xA5 }
        // Rewritten in place (same inode, size and second): the open archive reads the garbage.
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: archive))
        try handle.write(contentsOf: Data(bytes))
        try handle.close()
        let response = try await service.get("/pm/3/5/2.png")
        #expect(response.status == .badGateway)
        #expect(String(decoding: response.body, as: UTF8.self).contains("3/5/2"))
    }

    @Test("A bad header is a start-up error naming the file")
    func badHeader() throws {
        let archive = folder.path + "/bad.pmtiles"
        folder.write("bad.pmtiles", Array("PMTiles".utf8) + [2] + [UInt8](repeating: 0, count: 200))
        #expect {
            _ = try service(archive)
        } throws: { error in
            "\(error)".contains(archive) && "\(error)".contains("version 2")
        }
    }

    @Test("Tile type avif is a start-up error naming the archive; a webp header over PNG bytes answers 502")
    func tileTypes() async throws {
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive)
        var bytes = Array(try Data(contentsOf: URL(fileURLWithPath: archive)))
        bytes[99] = PMTilesTileType.avif.rawValue
        try Data(bytes).write(to: URL(fileURLWithPath: archive))
        #expect {
            _ = try service(archive)
        } throws: { error in
            "\(error)".contains("tile type avif is not served") && "\(error)".contains(archive)
        }
        bytes[99] = PMTilesTileType.webp.rawValue
        try Data(bytes).write(to: URL(fileURLWithPath: archive))
        let served = try service(archive)
        #expect(try await served.get("/pm/0/0/0.png").status == .notFound)
        let response = try await served.get("/pm/0/0/0.webp")
        #expect(response.status == .badGateway)
        #expect(String(decoding: response.body, as: UTF8.self).contains("0/0/0 is not a WebP"))
    }

    @Test("A file replaced on disk is picked up")
    func replaced() async throws {
        let archive = folder.path + "/world.pmtiles"
        try await PMTilesReference.writeWorld(to: archive)
        let provider = try PMTilesTileProvider(path: archive, recheckInterval: .zero)
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) == .tile(Tile(data: Fixtures.worldTile(0, 0, 0),
                                                                       lastModified: provider.tileLastModified)))
        let leafy = folder.path + "/leafy.pmtiles"
        try await PMTilesReference.writeWorld(to: leafy, maxRootBytes: 40)
        #expect(rename(leafy, archive) == 0)
        guard case .tile(let tile) = try provider.tileFor(x: 5, y: 2, zoom: 3) else {
            Issue.record("no tile after the replacement")
            return
        }
        #expect(tile.data == Fixtures.worldTile(3, 5, 2))
        #expect(provider.header.leafDirectories.length > 0)
        #expect(unlink(archive) == 0)
        #expect(try provider.tileFor(x: 0, y: 0, zoom: 0) == .unavailable(retryAfter: 5))
    }
}

extension PMTilesTileProvider {
    /// The `lastModified` its tiles carry.
    var tileLastModified: Int? {
        guard case .tile(let tile)? = try? tileFor(x: 0, y: 0, zoom: 0) else { return nil }
        return tile.lastModified
    }
}
