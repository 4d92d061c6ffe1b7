import Foundation
import Testing
import TileHTTP
@testable import TileServer

/// `/readyz`: 200 while every layer's source answers, 503 naming the layer whose files went away.
@Suite struct ReadinessTests {
    let folder = TemporaryFolder()

    @Test func readinessNamesTheLayerWhoseSourceIsGoneAndRecovers() async throws {
        let tiles = folder.path + "/tiles"
        folder.write("tiles/0/0/0.png", Fixtures.worldTile(0, 0, 0))
        let service = try Fixtures.service(extraYAML: """
          - {name: shared, source: {type: directory, path: \(tiles)}}
          - {name: stack, source: {type: composite, layers: [{layer: shared}, {layer: world}]}}
        """, folder: folder)
        let ready = try await service.get("/readyz")
        #expect(ready.status == .ok)
        #expect(String(decoding: ready.body, as: UTF8.self).hasPrefix("ready: 3 layers"))

        try FileManager.default.moveItem(atPath: tiles, toPath: tiles + ".away")
        let broken = try await service.get("/readyz")
        #expect(broken.status == .serviceUnavailable)
        let text = String(decoding: broken.body, as: UTF8.self)
        #expect(text.contains("layer \"shared\""))
        #expect(text.contains("layer \"stack\": member \"shared\""))
        #expect(!text.contains("layer \"world\""))
        #expect(try await service.get("/healthz").status == .ok, "liveness is not readiness")

        try FileManager.default.moveItem(atPath: tiles + ".away", toPath: tiles)
        #expect(try await service.get("/readyz").status == .ok)
    }

    @Test func aMissingDatabaseFileIsNotReady() async throws {
        let source = Fixtures.packageRoot + "/tiles/bluemarble.mbtiles"
        let copy = folder.path + "/bm.mbtiles"
        try FileManager.default.copyItem(atPath: source, toPath: copy)
        let service = try Fixtures.service(extraYAML: "  - {name: bm, source: {type: mbtiles, path: \(copy)}}", folder: folder)
        #expect(try await service.get("/readyz").status == .ok)
        try FileManager.default.removeItem(atPath: copy)
        let broken = try await service.get("/readyz")
        #expect(broken.status == .serviceUnavailable)
        #expect(String(decoding: broken.body, as: UTF8.self).contains("layer \"bm\""))
    }
}
