import Dispatch
import Foundation
import TestHTTPClient
import Testing
import TileHTTP
@testable import TileProviders
@testable import TileServer
import TestThreads

/// The headers every kind of tile answer carries on the wire: CORS on 200, 304, 404, 400 and
/// 503; 304 for a weak tag, a list of tags and `If-Modified-Since`; for memory hits, tiles sent
/// with `sendfile`, derived `@2x` tiles and composite tiles.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HeaderMatrixTests {
    let folder = TemporaryFolder()

    /// "Not available now", always.
    struct Unavailable: SyncTileProvider {
        func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult { .unavailable(retryAfter: 4) }
    }

    /// Sends `requests` (path, extra header lines) one by one on one connection to a live server
    /// and returns the answers. The blocking client runs on the suite's own threads
    /// (`.ownThreads`), so the pool other suites' tasks run on stays free.
    func answers(_ requests: [(String, [String])]) async throws -> [RawResponse?] {
        var registry = SourceRegistry()
        registry.register("unavailable") { _, _ in .sync(Unavailable()) }
        let configuration = try Configuration.parse(yaml: """
        server: {cors: "https://app.example"}
        layers:
          - {name: world, source: {type: directory, path: \(Fixtures.worldFolder)}}
          - {name: direct, source: {type: directory, path: \(Fixtures.worldFolder)}, cache: {memory: false}}
          - name: stack
            source: {type: composite, layers: [{layer: world}, {layer: direct, zIndex: 1, opacity: 0.5}]}
          - {name: later, source: {type: unavailable}, maxZoom: 3}
        """, file: folder.path + "/t.yml", registry: registry)
        let service = TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: Fixtures.logger),
                                  logger: Fixtures.logger)
        let live = try LiveServer(responder: service)
        let port = live.port
        let outcome = Result { () throws -> [RawResponse?] in
            // Renders (@2x, composite) on a loaded machine may take seconds: wait for them.
            let client = try RawHTTPClient(port: port, timeoutSeconds: 30)
            return requests.map { path, headers in client.request(path, headers: headers) }
        }
        await live.stop()
        return try outcome.get()
    }

    static let origin = "https://app.example"

    @Test(arguments: ["/world/2/1/1.png", "/direct/2/1/1.png", "/world/1/1/0@2x.png", "/stack/2/1/1.png"])
    func conditionalRequestsGive304WithCORS(path: String) async throws {
        // The second request of the memory layers is a hit.
        let first = try await answers([(path, []), (path, [])])
        #expect(first[0]?.status == 200)
        let full = try #require(first[1])
        #expect(full.status == 200)
        #expect(full.header("Access-Control-Allow-Origin") == Self.origin)
        #expect(full.header("Content-Length") == String(full.body.count))
        let etag = try #require(full.header("ETag"))
        var conditions = ["If-None-Match: W/\(etag)", "If-None-Match: \"nope\", \(etag)"]
        if let modified = full.header("Last-Modified") { conditions.append("If-Modified-Since: \(modified)") }
        #expect(conditions.count == 3)  // every kind of tile here knows its Last-Modified
        let conditional = try await answers([(path, [])] + conditions.map { (path, [$0]) })
        for (condition, answer) in zip(conditions, conditional.dropFirst()) {
            let answer = try #require(answer, "\(condition)")
            #expect(answer.status == 304, "\(condition)")
            #expect(answer.body.isEmpty, "\(condition)")
            #expect(answer.header("ETag") == etag, "\(condition)")
            #expect(answer.header("Access-Control-Allow-Origin") == Self.origin, "\(condition)")
        }
    }

    @Test func errorAnswersCarryCORSAndCacheControl() async throws {
        let cases = [
            ("/world/9/0/0.png", 404, ServiceError.requestErrorCacheControl),
            ("/direct/1/0/9.png", 404, ServiceError.requestErrorCacheControl),
            ("/world/1/x/0.png", 400, ServiceError.requestErrorCacheControl),
            ("/later/1/0/0.png", 503, "no-store"),
        ]
        let answers = try await answers(cases.map { ($0.0, []) })
        for ((path, status, caching), answer) in zip(cases, answers) {
            let answer = try #require(answer, "\(path)")
            #expect(answer.status == status, "\(path)")
            #expect(answer.header("Access-Control-Allow-Origin") == Self.origin, "\(path)")
            #expect(answer.header("Cache-Control") == caching, "\(path)")
            #expect(!answer.body.isEmpty, "\(path)")
        }
        #expect(answers.last??.header("Retry-After") == "4")
    }
}
