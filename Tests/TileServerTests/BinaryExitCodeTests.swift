import Dispatch
import Foundation
import Testing
@testable import TileServer
import TestThreads

/// The `tilelayer` binary itself: `tilelayer tile` exits 0 with a tile, 2 for no tile, 75 for
/// not available now and 1 for an error. Built by `swift build` / `swift test`; a missing
/// binary fails the test (a check that cannot run is not a pass).
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct BinaryExitCodeTests {
    let folder = TemporaryFolder()

    static func run(_ arguments: [String]) throws -> Int32 {
        try runTilelayer(arguments).status
    }

    @Test func tileExitCodes() async throws {
        let refusing = try RefusingPort()
        let port = refusing.port
        folder.write("sparse/1/0/0.png", Fixtures.worldTile(1, 0, 0))
        folder.write("sparse/1/1/0.png", Array("not a png".utf8))
        folder.write("t.yml", Array("""
        layers:
          - {name: sparse, source: {type: directory, path: sparse}, minZoom: 0, maxZoom: 1}
          - name: down
            source: {type: url, template: "http://127.0.0.1:\(port)/{z}/{x}/{y}.png", timeoutSeconds: 1, connectTimeoutSeconds: 1}
            maxZoom: 3
        """.utf8))
        let config = folder.path + "/t.yml"
        let out = folder.path + "/out.png"
        // The binary runs four times, waited for on this suite's own threads (`.ownThreads`).
        let codes = try [("sparse", "1/0/0"), ("sparse", "1/0/1"), ("down", "1/0/0"), ("sparse", "1/1/0")].map { layer, tile in
            try Self.run(["tile", "--config", config, "--layer", layer, tile, "-o", out])
        }
        withExtendedLifetime(refusing) {}  // refusing until the binary has run
        #expect(codes == [0, 2, 75, 1])
    }

    /// `tilelayer clear-cache` against a real server of ours: 0 when cleared, 1 when refused.
    @Test func clearCacheExitCodes() async throws {
        let provider = CountingProvider { x, y, zoom in CountingProvider.solid(x: x, y: y, zoom: zoom) }
        let service = try Fixtures.adminService(layer: "test", provider: provider, folder: folder)
        let live = try LiveServer(responder: service)
        _ = try await service.get("/test/1/0/0.png")
        let server = "http://127.0.0.1:\(live.port)"
        let codes = [
            try? Self.run(["clear-cache", "--layer", "test", "--server", server, "--token", "s3cret"]),
            try? Self.run(["clear-cache", "--layer", "test", "--server", server, "--token", "wrong"]),
        ]
        #expect(codes == [0, 1])
        _ = try await service.get("/test/1/0/0.png")
        #expect(provider.callCount == 2)  // the clear reached the server
        await live.stop()
    }
}
