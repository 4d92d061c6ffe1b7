import Synchronization
import Testing
import TileHTTP
import TilePNG
@testable import TileProviders
@testable import TileServer

/// Upstream tiles expire from memory by the layer's maxAge (or ttl) and go out with `Age`;
/// misses are coalesced whether the layer keeps tiles in memory or not. Against a second real
/// server of ours.
@Suite(.timeLimit(.minutes(1))) struct ExpiryTests {
    let folder = TemporaryFolder()

    /// Runs `body` with an upstream of ours and a service whose layer `up` (maxAge `maxAge`) fetches from it.
    func withUpstream(maxAge: Int = 1, _ body: (TestUpstream, TileService) async throws -> Void) async throws {
        let upstream = TestUpstream()
        let live = try LiveServer(responder: upstream)
        try await body(upstream, try service(port: live.port, maxAge: maxAge))
        await live.stop()
    }

    func service(port: Int, maxAge: Int = 1, extra: String = "") throws -> TileService {
        try Fixtures.service(extraYAML: """
          - name: up
            source: {type: url, template: "http://127.0.0.1:\(port)/{z}/{x}/{y}.png", retryAfterSeconds: 3}
            maxAge: \(maxAge)
            maxZoom: 5
        \(extra)
        """, folder: folder)
    }

    @Test func anUpstreamTileExpiresFromMemory() async throws {
        try await withUpstream { upstream, service in
            #expect(try AdminTests.blue(try await service.get("/up/1/0/0.png")) == 1)
            upstream.version.store(2, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(2100))
            #expect(try AdminTests.blue(try await service.get("/up/1/0/0.png")) == 2)
            #expect(upstream.requests.load(ordering: .relaxed) == 2)
        }
    }

    @Test func aHitCarriesAge() async throws {
        try await withUpstream(maxAge: 60) { upstream, service in
            _ = try await service.get("/up/1/0/0.png")
            try await Task.sleep(for: .milliseconds(1100))
            let hit = try await service.get("/up/1/0/0.png")
            #expect(hit.note == "hit")
            #expect(Int(hit.headers[.age] ?? "") ?? 0 >= 1)
            #expect(hit.headers[.cacheControl] == "public, max-age=60")
            #expect(upstream.requests.load(ordering: .relaxed) == 1)
        }
    }

    @Test func aDerivedTileIsAsOldAsItsOldestSource() async throws {
        try await withUpstream(maxAge: 60) { upstream, service in
            for (x, y) in [(0, 0), (1, 0), (0, 1), (1, 1)] { _ = try await service.get("/up/2/\(x)/\(y).png") }
            try await Task.sleep(for: .milliseconds(1100))
            let retina = try await service.get("/up/1/0/0@2x.png")
            #expect(retina.note == "miss")
            #expect(Int(retina.headers[.age] ?? "") ?? 0 >= 1)
        }
    }

    @Test func anExpiredMemoryCopyIsServedStaleWhenTheUpstreamFails() async throws {
        try await withUpstream { upstream, service in
            let fresh = try await service.get("/up/1/0/0.png")
            upstream.broken.store(true, ordering: .relaxed)
            try await Task.sleep(for: .milliseconds(1100))
            let stale = try await service.get("/up/1/0/0.png")
            #expect(stale.status == .ok)
            #expect(stale.body == fresh.body)
            #expect(Int(stale.headers[.age] ?? "") ?? 0 >= 1)
            #expect(stale.note?.contains("stale") == true)
            #expect(upstream.requests.load(ordering: .relaxed) == 2)
        }
    }

    @Test func aLayerTTLOverridesMaxAgeForMemory() async throws {
        let service = try Fixtures.service(extraYAML: """
          - name: files
            source: {type: directory, path: \(Fixtures.worldFolder)}
            ttl: 1
        """, folder: folder)
        _ = try await service.get("/files/1/0/0.png")
        try await Task.sleep(for: .milliseconds(1100))
        #expect(try await service.get("/files/1/0/0.png").note == "miss")
        #expect(try await service.get("/world/1/0/0.png").headers[.age] == nil)  // files do not expire by default
    }

    @Test(arguments: [true, false])
    func concurrentMissesMakeOneUpstreamRequest(memory: Bool) async throws {
        let upstream = TestUpstream(delay: 1)  // long enough for all twelve to arrive on a loaded machine
        let live = try LiveServer(responder: upstream)
        let service = try Fixtures.service(extraYAML: """
          - name: up
            source: {type: url, template: "http://127.0.0.1:\(live.port)/{z}/{x}/{y}.png"}
            cache: {memory: \(memory)}
            maxZoom: 5
        """, folder: folder)
        let statuses = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0 ..< 12 { group.addTask { try await service.get("/up/3/2/1.png").status.code } }
            return try await group.reduce(into: [Int]()) { $0.append($1) }
        }
        #expect(statuses == Array(repeating: 200, count: 12))
        #expect(upstream.requests.load(ordering: .relaxed) == 1)
        await live.stop()
    }
}
