// A cached tile's 200 is encoded once and reused; what it depends on (the layer, the CORS
// setting) changing through a reload must show in the next hit, and conditional requests still
// get their own answers.

import Testing
import TileHTTP
@testable import TileServer

@Suite struct PreparedAnswerTests {
    let folder = TemporaryFolder()

    private func configuration(cors: String, maxAge: Int?) throws -> Configuration {
        try Fixtures.configuration("""
        server: {port: 8080, cors: "\(cors)"}
        layers:
          - name: world
            default: true
            source: {type: directory, path: \(Fixtures.worldFolder)}
        \(maxAge.map { "    maxAge: \($0)" } ?? "")
        """, in: folder)
    }

    @Test func hitsCarryThePreparedHeadAndFollowAReload() async throws {
        let service = TileService(state: try ServiceState(configuration: try configuration(cors: "*", maxAge: nil),
                                                          logger: Fixtures.logger), logger: Fixtures.logger)
        let miss = try await service.get("/world/1/0/0.png")
        let hit = try await service.get("/world/1/0/0.png")
        #expect(hit.note == "hit")
        #expect(hit.preparedHead != nil)
        #expect(hit.headers[.eTag] == miss.headers[.eTag])
        #expect(hit.body == Fixtures.worldTile(1, 0, 0))
        let head = String(decoding: try #require(hit.preparedHead), as: UTF8.self)
        #expect(head.hasPrefix("HTTP/1.1 200 OK\r\n"))
        #expect(head.contains("ETag: \(try #require(hit.headers[.eTag]))\r\n"))
        #expect(head.contains("Access-Control-Allow-Origin: *\r\n"))
        #expect(head.hasSuffix("Content-Length: \(Fixtures.worldTile(1, 0, 0).count)\r\n"))

        // Same layer settings, new CORS value: the layer (and its cache) is kept, the answer is not.
        let summary = try service.reload(try configuration(cors: "https://maps.example", maxAge: nil))
        #expect(summary.kept == ["world"])
        let afterCORS = try await service.get("/world/1/0/0.png")
        #expect(afterCORS.note == "hit")
        #expect(afterCORS.headers[.accessControlAllowOrigin] == "https://maps.example")
        #expect(String(decoding: try #require(afterCORS.preparedHead), as: UTF8.self)
            .contains("Access-Control-Allow-Origin: https://maps.example\r\n"))

        // A new max-age rebuilds the layer: the answer follows it.
        _ = try service.reload(try configuration(cors: "https://maps.example", maxAge: 60))
        _ = try await service.get("/world/1/0/0.png")
        let afterMaxAge = try await service.get("/world/1/0/0.png")
        #expect(afterMaxAge.headers[.cacheControl] == "public, max-age=60")
        #expect(String(decoding: try #require(afterMaxAge.preparedHead), as: UTF8.self)
            .contains("Cache-Control: public, max-age=60\r\n"))
    }

    @Test func conditionalRequestsAreAnsweredEachTime() async throws {
        let service = try Fixtures.service(folder: folder)
        let first = try await service.get("/1/1/0.png")
        let etag = try #require(first.headers[.eTag])
        let matching = try await service.get("/1/1/0.png", headers: [.ifNoneMatch: etag])
        #expect(matching.status == .notModified)
        #expect(matching.body.isEmpty)
        let other = try await service.get("/1/1/0.png", headers: [.ifNoneMatch: "\"0000\""])
        #expect(other.status == .ok)
        #expect(other.body == Fixtures.worldTile(1, 1, 0))
        #expect(HTTPConditional.isConditional([.ifModifiedSince: "Sun, 06 Nov 1994 08:49:37 GMT"]))
        #expect(!HTTPConditional.isConditional([.host: "x"]))
    }
}
