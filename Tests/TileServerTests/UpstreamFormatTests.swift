import Foundation
import Synchronization
import Testing
import TileHTTP
@testable import TileServer

/// `url` sources of other formats and `cacheControl: upstream`, against a second real server of ours.
@Suite(.timeLimit(.minutes(2))) struct UpstreamFormatTests {
    /// The upstream: the first path segment chooses the answer.
    final class Upstream: HTTPResponder, Sendable {
        let requests = Atomic<Int>(0)
        let jpeg: [UInt8]

        init(jpeg: [UInt8]) { self.jpeg = jpeg }

        func respond(
            to request: HTTPRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
        ) -> HTTPResponse? {
            requests.add(1, ordering: .relaxed)
            switch request.pathSegments.first {
            case "jpeg": return HTTPResponse(status: .ok, headers: [.contentType: "image/jpeg"], body: jpeg)
            case "png-as-jpeg": return HTTPResponse(status: .ok, headers: [.contentType: "image/jpeg"], body: Fixtures.worldTile(0, 0, 0))
            case "terms":
                return HTTPResponse(status: .ok, headers: [.contentType: "image/png", .cacheControl: "public, max-age=123",
                                                           .expires: "Thu, 01 Jan 2099 00:00:00 GMT"], body: Fixtures.worldTile(0, 0, 0))
            default: return HTTPResponse(status: .ok, headers: [.contentType: "image/png"], body: Fixtures.worldTile(0, 0, 0))
            }
        }
    }

    let folder = TemporaryFolder()

    @Test("The template's extension gives the format; bytes that differ answer 502 and are not cached; cacheControl: upstream passes the upstream's headers")
    func upstreamFormats() async throws {
        let files = try await FormatFixtures.folder()
        let jpeg = try await FormatFixtures.sqliteTile(files + "/jpeg.mbtiles", z: 0, x: 0, y: 0)
        let responder = Upstream(jpeg: jpeg)
        let upstream = try LiveServer(responder: responder)
        let base = "http://127.0.0.1:\(upstream.port)"
        let service = try Fixtures.service(extraYAML: """
              - name: sat
                maxAge: 600
                source: {type: url, template: "\(base)/jpeg/{z}/{x}/{y}.jpg"}
              - name: wrong
                source: {type: url, template: "\(base)/png-as-jpeg/{z}/{x}/{y}.jpeg"}
              - name: terms
                maxAge: 600
                source: {type: url, template: "\(base)/terms/{z}/{x}/{y}.png", cacheControl: upstream}
              - name: mine
                maxAge: 600
                source: {type: url, template: "\(base)/terms/{z}/{x}/{y}.png"}
              - name: plain
                maxAge: 600
                source: {type: url, template: "\(base)/plain/{z}/{x}/{y}.png", cacheControl: upstream}
            """, folder: folder)
        let sat = try await service.get("/sat/0/0/0.jpg")
        #expect(sat.status == .ok && sat.body == jpeg && sat.headers[.contentType] == "image/jpeg")
        #expect(sat.headers[.cacheControl] == "public, max-age=600")
        #expect(try await service.get("/sat/0/0/0.png").status == .notFound)

        let before = responder.requests.load(ordering: .relaxed)
        for _ in 0 ..< 2 {
            let wrong = try await service.get("/wrong/0/0/0.jpg")
            #expect(wrong.status == .badGateway)
            #expect(String(decoding: wrong.body, as: UTF8.self).contains("wrong/0/0/0 is not a JPEG"))
        }
        #expect(responder.requests.load(ordering: .relaxed) - before == 2, "a refused tile is not cached")

        let terms = try await service.get("/terms/0/0/0.png")
        #expect(terms.status == .ok)
        #expect(terms.headers[.cacheControl] == "public, max-age=123")
        #expect(terms.headers[.expires] == "Thu, 01 Jan 2099 00:00:00 GMT")
        let hit = try await service.get("/terms/0/0/0.png")
        #expect(hit.headers[.cacheControl] == "public, max-age=123" && hit.note?.hasPrefix("hit") == true)
        let mine = try await service.get("/mine/0/0/0.png")
        #expect(mine.headers[.cacheControl] == "public, max-age=600" && mine.headers[.expires] == nil)
        // An upstream that sends neither: the layer's own.
        #expect(try await service.get("/plain/0/0/0.png").headers[.cacheControl] == "public, max-age=600")
        await upstream.stop()
    }

    @Test("cacheControl takes upstream or layer")
    func badValue() throws {
        #expect {
            _ = try Fixtures.service(extraYAML: """
                  - name: up
                    source: {type: url, template: "http://127.0.0.1:9/{z}/{x}/{y}.png", cacheControl: always}
                """, folder: folder)
        } throws: { "\($0)".contains("\"always\" is not one of upstream, layer") }
    }
}
