import Foundation
import Testing
import TileHTTP
import TileProviders
@testable import TileServer
import TestThreads

/// Issue 56, failure 4: overload waited instead of shedding (every request queued, the median
/// waiting seconds). Now, once the workers' expected wait passes `server.workers.maxWaitSeconds`,
/// a new cold request is refused on the event loop — a 503 with `Retry-After`, never stored,
/// counted — while memory hits keep being answered there.
@Suite(.ownThreads, .timeLimit(.minutes(1))) struct LoadSheddingTests {
    let folder = TemporaryFolder()

    /// A service whose layer `slow` takes 50 ms a tile on two worker threads (40 tiles a second).
    func service(_ provider: CountingProvider, maxWait: Double? = 0.5) throws -> TileService {
        var registry = SourceRegistry()
        registry.register("slow") { _, _ in .sync(provider) }
        let yaml = """
        server:
          cors: "*"
          workers: {threads: 2\(maxWait.map { ", maxWaitSeconds: \($0)" } ?? "")}
        layers:
          - {name: slow, source: {type: slow}, maxZoom: 12}
        """
        return try Fixtures.service(yaml: yaml, registry: registry, folder: folder)
    }

    static func provider() -> CountingProvider {
        CountingProvider(delay: 0.05) { x, y, zoom in CountingProvider.solid(x: x, y: y, zoom: zoom, size: 16) }
    }

    @Test func coldWorkIsShedAtOnceWhileMemoryHitsFlow() async throws {
        let service = try service(Self.provider())
        let hot = "/slow/12/1/1.png"
        #expect(try await service.get(hot).status == .ok)

        // 200 cold tiles at once: five seconds of work for two threads.
        for x in 0 ..< 200 { _ = try service.answerOnLoop("/slow/12/\(x + 10)/5.png") }
        // Once the pool's pace is measured, a new cold tile is refused on the loop.
        var shed: HTTPResponse?
        var probe = 0
        _ = try await eventually {
            probe += 1
            shed = try? service.answerOnLoop("/slow/12/\(probe)/900.png", headers: [.origin: "https://app.example.org"])
            return shed != nil
        }
        let refusal = try #require(shed, "no cold request was refused at once")
        #expect(refusal.status == .serviceUnavailable)
        #expect(refusal.headers[.retryAfter].flatMap { Int($0) }.map { $0 >= 1 } == true)
        #expect(refusal.headers[.cacheControl] == "no-store")
        #expect(refusal.headers[.accessControlAllowOrigin] == "*")
        #expect(refusal.route == "tile")
        #expect(refusal.restSeconds == LoadShedding.restSeconds, "the refused connection rests before its next request")

        // A memory hit is answered on the loop as before.
        let hit = try #require(try service.answerOnLoop(hot))
        #expect(hit.status == .ok)
        let page = try await service.get("/metrics")
        let exposition = try PrometheusExposition(String(decoding: page.body, as: UTF8.self))
        #expect(exposition.sum("tilelayer_requests_shed_total", matching: ["layer": "slow"]) >= 1)
    }

    /// An asynchronous source that answers two tiles at a time, 50 ms each, awaiting (as an
    /// upstream does): the render threads and the workers have nothing queued meanwhile.
    actor TwoAtATime: AsyncTileProvider {
        private var busy = 0
        private var waiting: [CheckedContinuation<Void, Never>] = []

        func requestTile(_ request: TileRequest) async throws(TileProviderError) -> TileResult {
            if busy == 2 { await withCheckedContinuation { waiting.append($0) } } else { busy += 1 }
            try? await Task.sleep(for: .milliseconds(50))
            if waiting.isEmpty { busy -= 1 } else { waiting.removeFirst().resume() }
            return CountingProvider.solid(x: request.tile.x, y: request.tile.y, zoom: request.tile.z, size: 16)
        }
    }

    /// The wait a new request faces includes its layer's cold requests in flight over the rate
    /// they are answered, wherever they wait: 200 tiles of a source that answers 40 a second are
    /// five seconds of waiting though no queue of threads is long (the requests wait inside the
    /// source, as composites wait on one another's renders). Another layer's cold tiles are
    /// not shed for it.
    @Test func requestsWaitingInsideASourceAreShedToo() async throws {
        var registry = SourceRegistry()
        let provider = TwoAtATime()
        registry.register("paced") { _, _ in .async(provider) }
        registry.register("quick") { _, _ in .sync(CountingProvider { x, y, zoom in CountingProvider.solid(x: x, y: y, zoom: zoom, size: 16) }) }
        let yaml = """
        server:
          workers: {threads: 2, maxWaitSeconds: 0.5}
        layers:
          - {name: paced, source: {type: paced}, maxZoom: 12}
          - {name: quick, source: {type: quick}, maxZoom: 12}
        """
        let service = try Fixtures.service(yaml: yaml, registry: registry, folder: folder)
        for x in 0 ..< 200 { _ = try service.answerOnLoop("/paced/12/\(x + 10)/5.png") }
        var probe = 0
        let refused = try await eventually {
            probe += 1
            return (try? service.answerOnLoop("/paced/12/\(probe)/900.png"))?.status == .serviceUnavailable
        }
        #expect(refused, "no cold request was refused while 200 waited inside the source")
        let other = try service.answerOnLoop("/quick/12/7/7.png")
        #expect(other?.status != .serviceUnavailable, "another layer's cold tile was shed for the slow one")
    }

    @Test func sheddingCanBeTurnedOff() async throws {
        let service = try service(Self.provider(), maxWait: 0)
        for x in 0 ..< 100 { _ = try service.answerOnLoop("/slow/12/\(x + 10)/5.png") }
        try await Task.sleep(for: .milliseconds(600))
        #expect(try service.answerOnLoop("/slow/12/3/900.png") == nil, "queued, not refused")
    }
}
