import Foundation
import Hashing
import Testing
import TileHTTP
@testable import TileServer

@Suite struct TileServiceTests {
    let folder = TemporaryFolder()

    @Test func servesTheFileByteForByteWithHeaders() async throws {
        let service = try Fixtures.service(folder: folder)
        let response = try await service.get("/3/4/2.png")
        #expect(response.status == .ok)
        #expect(response.body == Fixtures.worldTile(3, 4, 2))
        #expect(response.headers[.contentType] == "image/png")
        #expect(response.headers[.cacheControl] == "public, max-age=86400")
        #expect(response.headers[.accessControlAllowOrigin] == "*")
        #expect(response.headers[.eTag] == ContentHash.etag(of: Fixtures.worldTile(3, 4, 2)))
        let mtime = try FileManager.default.attributesOfItem(atPath: Fixtures.worldFolder + "/3/4/2.png")[.modificationDate] as! Date
        #expect(response.headers[.lastModified] == HTTPDate.format(secondsSince1970: Int(mtime.timeIntervalSince1970)))
        #expect(try await service.get("/world/3/4/2.png").body == response.body)
    }

    @Test func xWrapsAroundTheWorld() async throws {
        let service = try Fixtures.service(folder: folder)
        #expect(try await service.get("/2/5/1.png").body == Fixtures.worldTile(2, 1, 1))
        #expect(try await service.get("/2/4/1.png").body == Fixtures.worldTile(2, 0, 1))
        #expect(try await service.get("/0/7/0.png").body == Fixtures.worldTile(0, 0, 0))
    }

    @Test(arguments: ["/4/0/0.png", "/2/0/4.png", "/world/9/0/0.png", "/nope/0/0/0.png", "/nope.json", "/a/b", "/0/0/0.jpg"])
    func outOfRangeAndUnknownAre404(_ path: String) async throws {
        let response = try await Fixtures.service(folder: folder).get(path)
        #expect(response.status == .notFound)
        #expect(!response.body.isEmpty)
    }

    @Test(arguments: ["/0/a/0.png", "/0/0/b.png", "/world/0/0/-1.png", "/world/z/0/0.png"])
    func notANumberIs400(_ path: String) async throws {
        let response = try await Fixtures.service(folder: folder).get(path)
        #expect(response.status == .badRequest)
        #expect(String(decoding: response.body, as: UTF8.self).contains("is not a number"))
    }

    @Test func missingFileIsNoTile404Cacheable() async throws {
        let tiles = TemporaryFolder()
        tiles.write("0/0/0.png", Fixtures.worldTile(0, 0, 0))
        let service = try Fixtures.service(extraYAML: """
          - name: sparse
            source: {type: directory, path: \(tiles.path)}
            maxZoom: 2
            maxAge: 600
        """, folder: folder)
        let response = try await service.get("/sparse/1/0/0.png")
        #expect(response.status == .notFound)
        #expect(response.headers[.cacheControl] == "public, max-age=600")
    }

    @Test func emptyTileVariants() async throws {
        let tiles = TemporaryFolder()
        tiles.write("0/0/0.png", Fixtures.worldTile(0, 0, 0))
        let service = try Fixtures.service(extraYAML: """
          - name: blank
            source: {type: directory, path: \(tiles.path)}
            maxZoom: 2
            emptyTile: transparent
          - name: nocontent
            source: {type: directory, path: \(tiles.path)}
            maxZoom: 2
            emptyTile: "204"
        """, folder: folder)
        let blank = try await service.get("/blank/1/1/1.png")
        #expect(blank.status == .ok)
        #expect(blank.body == TransparentTile.png256)
        #expect(blank.headers[.eTag] != nil)
        #expect(try await service.get("/nocontent/1/1/1.png").status == .noContent)
        #expect(try await service.get("/nocontent/1/1/1.png").body.isEmpty)
    }

    @Test func nonPNGFileIs502() async throws {
        let tiles = TemporaryFolder()
        tiles.write("0/0/0.png", Array("<html>not a tile</html>".utf8))
        let service = try Fixtures.service(extraYAML: """
          - name: broken
            source: {type: directory, path: \(tiles.path)}
            maxZoom: 0
        """, folder: folder)
        let response = try await service.get("/broken/0/0/0.png")
        #expect(response.status == .badGateway)
        #expect(String(decoding: response.body, as: UTF8.self).contains("not a PNG"))
    }

    @Test func conditionalRequestsGet304() async throws {
        let service = try Fixtures.service(folder: folder)
        let first = try await service.get("/1/0/0.png")
        let etag = try #require(first.headers[.eTag])
        let lastModified = try #require(first.headers[.lastModified])
        for headers: HTTPHeaders in [[.ifNoneMatch: etag], [.ifNoneMatch: "W/\(etag)"], [.ifNoneMatch: "\"zz\", \(etag)"],
                                     [.ifNoneMatch: "*"], [.ifModifiedSince: lastModified]] {
            let response = try await service.get("/1/0/0.png", headers: headers)
            #expect(response.status == .notModified)
            #expect(response.headers[.eTag] == etag)
        }
        #expect(try await service.get("/1/0/0.png", headers: [.ifNoneMatch: "\"other\""]).status == .ok)
        #expect(try await service.get("/1/0/0.png", headers: [.ifModifiedSince: "Thu, 01 Jan 1970 00:00:00 GMT"]).status == .ok)
    }

    @Test func etagIsAStableContentHash() async throws {
        // The same bytes give the same tag in another process (XXH64's reference values: ContentHashTests).
        let copy = TemporaryFolder()
        copy.write("0/0/0.png", Fixtures.worldTile(1, 1, 0))
        let service = try Fixtures.service(extraYAML: """
          - name: copy
            source: {type: directory, path: \(copy.path)}
            maxZoom: 0
        """, folder: folder)
        #expect(try await service.get("/copy/0/0/0.png").headers[.eTag] == service.get("/1/1/0.png").headers[.eTag])
    }

    @Test func methodsOtherThanReadsAre405WithAllow() async throws {
        let service = try Fixtures.service(folder: folder)
        for method in [HTTPMethod.post, .put, .delete, HTTPMethod("PATCH")] {
            let response = try await service.get("/0/0/0.png", method: method)
            #expect(response.status == .methodNotAllowed)
            #expect(response.headers[.allow] == "GET, HEAD, OPTIONS")
        }
    }

    @Test func optionsIsACORSPreflight() async throws {
        let service = try Fixtures.service(folder: folder)
        let response = try await service.get("/0/0/0.png", method: .options,
                                       headers: [HTTPHeaderName("Access-Control-Request-Headers"): "if-none-match"])
        #expect(response.status == .noContent)
        #expect(response.headers[.accessControlAllowOrigin] == "*")
        #expect(response.headers[.accessControlAllowMethods] == "GET, HEAD, OPTIONS")
        #expect(response.headers[.accessControlAllowHeaders] == "if-none-match")
    }

    @Test func corsOriginIsConfigurableAndCanBeOff() async throws {
        let custom = try Fixtures.service(server: ", cors: \"https://app.example\"", folder: folder)
        #expect(try await custom.get("/0/0/0.png").headers[.accessControlAllowOrigin] == "https://app.example")
        let off = try Fixtures.service(server: ", cors: \"\"", folder: TemporaryFolder())
        #expect(try await off.get("/0/0/0.png").headers[.accessControlAllowOrigin] == nil)
    }

    @Test func healthz() async throws {
        let response = try await Fixtures.service(folder: folder).get("/healthz")
        #expect(response.status == .ok)
        #expect(String(decoding: response.body, as: UTF8.self) == "ok\n")
    }

    @Test func indexPageListsLayers() async throws {
        let response = try await Fixtures.service(folder: folder).get("/")
        #expect(response.headers[.contentType] == "text/html; charset=utf-8")
        #expect(String(decoding: response.body, as: UTF8.self).contains("/world.json"))
    }
}

extension TileServiceTests {
    @Test func directoryTemplatesLocateTilesByTMSRowOrQuadkey() async throws {
        let tiles = TemporaryFolder()
        tiles.write("tms/1/1/1.png", Fixtures.worldTile(1, 1, 0))  // TMS row 1 at zoom 1 is XYZ row 0
        tiles.write("quad/1.png", Fixtures.worldTile(1, 1, 0))     // quadkey of 1/1/0
        let service = try Fixtures.service(extraYAML: """
          - name: tms
            source: {type: directory, path: \(tiles.path)/tms, template: "{z}/{x}/{-y}.png"}
            maxZoom: 1
          - name: quad
            source: {type: directory, path: \(tiles.path)/quad, template: "{q}.png"}
            maxZoom: 1
        """, folder: folder)
        #expect(try await service.get("/tms/1/1/0.png").body == Fixtures.worldTile(1, 1, 0))
        #expect(try await service.get("/quad/1/1/0.png").body == Fixtures.worldTile(1, 1, 0))
        #expect(try await service.get("/quad/1/0/0.png").status == .notFound)
    }
}
