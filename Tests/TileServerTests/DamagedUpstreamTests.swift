import Foundation
import Hiredis
import Testing
import TileHTTP
@testable import TileServer
import TestThreads

/// Issue 56, failure 1: an upstream tile cut short (under a consistent Content-Length, or a
/// close-delimited body cut off) or noise after a PNG signature is a 502 `no-store` naming the
/// tile and the defect, counted, and kept in no tier — memory, disk or Redis — so the tile
/// served after the upstream heals, and after a restart, is the good one.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(2))) struct DamagedUpstreamTests {
    let folder = TemporaryFolder()

    /// A service with layer `up` over `upstream`'s `kind` answers, kept in memory, on disk under
    /// `disk` and in `redis`.
    func service(_ upstream: MisbehavingUpstream, kind: String, disk: String, redis: RedisServerProcess) throws -> TileService {
        let yaml = """
        server:
          cache: {redis: {url: "\(redis.url)", ttlSeconds: 600}}
        layers:
          - name: up
            source: {type: url, template: "http://127.0.0.1:\(upstream.port)/\(kind)/{z}/{x}/{y}.png", timeoutSeconds: 5}
            maxZoom: 5
            cache: {memory: true, disk: \(disk), redis: true}
        """
        let configuration = try Fixtures.configuration(yaml, in: folder)
        return TileService(state: try ServiceState(configuration: configuration, logger: Fixtures.logger), logger: Fixtures.logger)
    }

    static func storedTiles(_ redis: RedisServerProcess) throws -> Int {
        guard case .array(let keys) = try redis.connection().command(["KEYS", "tilelayer:tile2:*"]) else { return -1 }
        return keys.count
    }

    /// Whether two bodies are the same bytes (a plain Bool: `#expect` would diff 100 kB arrays).
    static func same(_ a: [UInt8], _ b: [UInt8]) -> Bool { a == b }

    /// The regular files under `path`, relative to it.
    static func filesUnder(_ path: String) -> [String] {
        let found = FileManager.default.enumerator(atPath: path)?.allObjects as? [String] ?? []
        return found.filter { relative in
            var isFolder: ObjCBool = false
            return FileManager.default.fileExists(atPath: path + "/" + relative, isDirectory: &isFolder) && !isFolder.boolValue
        }
    }

    @Test(arguments: ["truncated", "cut", "noise"])
    func aDamagedUpstreamTileIsA502KeptNowhere(kind: String) async throws {
        let tile = Fixtures.worldTile(1, 1, 0)
        let upstream = try MisbehavingUpstream(tile: tile)
        let redis = try RedisServerProcess()
        let disk = folder.path + "/disk-\(kind)"
        let first = try service(upstream, kind: kind, disk: disk, redis: redis)

        let damaged = try await first.get("/up/1/1/0.png")
        #expect(damaged.status == .badGateway)
        #expect(damaged.headers[.cacheControl] == "no-store")
        let text = String(decoding: damaged.body, as: UTF8.self)
        #expect(text.contains("1/1/0"), "names the tile: \(text)")
        #expect(text.contains("damaged"), "says what is wrong: \(text)")
        let metrics = try await first.get("/metrics")
        let exposition = try PrometheusExposition(String(decoding: metrics.body, as: UTF8.self))
        #expect(exposition.sum("tilelayer_tiles_rejected_total", matching: ["layer": "up", "reason": "damaged"]) == 1)

        // Kept nowhere: asked again, the upstream is asked again; no file, no Redis value.
        await first.waitForCacheWrites()
        #expect(try await first.get("/up/1/1/0.png").status == .badGateway)
        #expect(upstream.count(kind) == 2)
        await first.waitForCacheWrites()
        #expect(Self.filesUnder(disk).isEmpty, "disk tier: \(Self.filesUnder(disk))")
        #expect(try Self.storedTiles(redis) == 0)

        // Healed: the good tile, kept everywhere.
        upstream.healed.store(true, ordering: .relaxed)
        let good = try await first.get("/up/1/1/0.png")
        #expect(good.status == .ok)
        #expect(Self.same(good.body, tile), "the good tile")
        await first.waitForCacheWrites()
        #expect(try Self.storedTiles(redis) == 1)
        #expect(Self.filesUnder(disk).count == 1, "the check above sees a stored tile: \(Self.filesUnder(disk))")

        // Damaged again, and a restart: what the tiers give is the good tile.
        upstream.healed.store(false, ordering: .relaxed)
        let restarted = try service(upstream, kind: kind, disk: disk, redis: redis)
        let again = try await restarted.get("/up/1/1/0.png")
        #expect(again.status == .ok)
        #expect(Self.same(again.body, tile), "the good tile")
        #expect(again.headers[.eTag] == good.headers[.eTag])
        redis.stop()
        let fromDisk = try service(upstream, kind: kind, disk: disk, redis: redis)
        let onDisk = try await fromDisk.get("/up/1/1/0.png")
        #expect(onDisk.status == .ok)
        #expect(Self.same(onDisk.body, tile), "the disk tier holds the good tile")
        upstream.stop()
    }
}
