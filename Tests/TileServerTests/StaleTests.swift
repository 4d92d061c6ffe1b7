import Foundation
import Logging
import Synchronization
import Testing
import TileHTTP
@testable import TileProviders
@testable import TileServer

/// RFC 5861 `stale-if-error`: an expired disk copy answers when the source cannot.
@Suite(.timeLimit(.minutes(1))) struct StaleTests {
    let folder = TemporaryFolder()

    /// A provider that serves tiles until `broken` is set, then "not available now" (or fails).
    final class Flaky: SyncTileProvider, Sendable {
        let broken = Atomic<Int>(0)  // 0 works, 1 unavailable, 2 fails
        let calls = Atomic<Int>(0)

        func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
            calls.add(1, ordering: .relaxed)
            switch broken.load(ordering: .relaxed) {
            case 0: return CountingProvider.solid(x: x, y: y, zoom: zoom)
            case 1: return .unavailable(retryAfter: 7)
            default: throw .unreadable(path: "/upstream/\(zoom)/\(x)/\(y).png", errno: EIO)
            }
        }
    }

    func service(_ provider: Flaky, maxAge: Int, memory: Bool = false, disk: Bool = true, logger: Logger = Fixtures.logger) throws -> TileService {
        var registry = SourceRegistry()
        registry.register("flaky") { _, _ in .sync(provider) }
        let yaml = """
        layers:
          - name: flaky
            source: {type: flaky}
            maxZoom: 5
            maxAge: \(maxAge)
            cache: {memory: \(memory)\(disk ? ", disk: \(folder.path)/cache" : "")}
        """
        return try Fixtures.service(yaml: yaml, registry: registry, folder: folder, logger: logger)
    }

    @Test(arguments: [1, 2]) func anExpiredCopyIsServedStaleWithAgeWhenTheSourceFails(mode: Int) async throws {
        let provider = Flaky()
        let log = CapturedLog()
        let service = try service(provider, maxAge: 0, logger: log.logger())
        let fresh = try await service.get("/flaky/2/1/1.png")
        #expect(fresh.status == .ok)
        #expect(fresh.headers[.age] == nil)
        await service.waitForCacheWrites()

        provider.broken.store(mode, ordering: .relaxed)
        try await Task.sleep(for: .milliseconds(1100))  // Age counts whole seconds
        let stale = try await service.get("/flaky/2/1/1.png")
        #expect(stale.status == .ok)
        #expect(stale.body == fresh.body)
        #expect(stale.headers[.eTag] == fresh.headers[.eTag])
        #expect(stale.headers[.lastModified] == fresh.headers[.lastModified])
        #expect(Int(stale.headers[.age] ?? "") ?? -1 >= 1)
        #expect(stale.note?.contains("stale") == true)
        #expect(provider.calls.load(ordering: .relaxed) == 2)  // it did ask the source again
        let lines = log.lines(containing: "stale")
        #expect(lines.count == 1)
        #expect(lines.first?.contains("layer=flaky") == true && lines.first?.contains("tile=flaky/2/1/1") == true)
        #expect(lines.first?.contains("age=") == true)
    }

    @Test func aFreshCopyIsServedFromDiskWithoutAskingTheSource() async throws {
        let provider = Flaky()
        let service = try service(provider, maxAge: 3600)
        let first = try await service.get("/flaky/2/1/1.png")
        await service.waitForCacheWrites()
        provider.broken.store(1, ordering: .relaxed)
        let second = try await service.get("/flaky/2/1/1.png")
        #expect(second.status == .ok && second.body == first.body && second.headers[.age] == nil)
        #expect(provider.calls.load(ordering: .relaxed) == 1)
    }

    @Test func anExpiredCopyIsReplacedWhenTheSourceWorks() async throws {
        let provider = Flaky()
        let service = try service(provider, maxAge: 0)
        _ = try await service.get("/flaky/1/0/0.png")
        await service.waitForCacheWrites()
        let again = try await service.get("/flaky/1/0/0.png")
        #expect(again.status == .ok && again.headers[.age] == nil && again.note?.contains("stale") != true)
        #expect(provider.calls.load(ordering: .relaxed) == 2)
    }

    @Test func withoutACopyTheAnswerIsStill503() async throws {
        let provider = Flaky()
        provider.broken.store(1, ordering: .relaxed)
        let response = try await service(provider, maxAge: 0).get("/flaky/1/0/0.png")
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "7")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/cache/flaky/1/0/0.tile"))  // never stored
    }

    @Test func aStaleAnswerIsNotKeptInMemory() async throws {
        let provider = Flaky()
        let service = try service(provider, maxAge: 0, memory: true)
        _ = try await service.get("/flaky/1/0/0.png")
        await service.waitForCacheWrites()
        service.pipeline.cache.removeAll()  // as if evicted
        provider.broken.store(1, ordering: .relaxed)
        #expect(try await service.get("/flaky/1/0/0.png").headers[.age] != nil)
        provider.broken.store(0, ordering: .relaxed)
        let recovered = try await service.get("/flaky/1/0/0.png")
        #expect(recovered.status == .ok && recovered.headers[.age] == nil)
        #expect(provider.calls.load(ordering: .relaxed) == 3)
    }
}
