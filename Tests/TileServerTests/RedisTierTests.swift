import Foundation
import Hiredis
import Logging
import Testing
import TileCache
import TileHTTP
@testable import TileProviders
@testable import TileServer
import TestThreads

/// The shared Redis tier through two services (two replicas) over one real redis-server.
@Suite(.ownThreads, .serialized, .timeLimit(.minutes(1))) struct RedisTierTests {
    let folder = TemporaryFolder()

    /// A replica: layer `test` (256 px, so `@2x` is a render) over `provider`, using `redis`.
    func replica(_ provider: CountingProvider, redis: RedisServerProcess, memory: Bool = false, disk: Bool = false,
                 timeoutMs: Int = 200, logger: Logger = Fixtures.logger) throws -> TileService {
        var registry = SourceRegistry()
        registry.register("counting") { _, _ in .sync(provider) }
        let yaml = """
        server:
          adminToken: s3cret
          cache: {redis: {url: "\(redis.url)", ttlSeconds: 600, timeoutMs: \(timeoutMs)}}
        layers:
          - name: test
            source: {type: counting}
            maxZoom: 5
            cache: {memory: \(memory), redis: true\(disk ? ", disk: \(folder.path)/disk-\(UUID().uuidString)" : "")}
        """
        return try Fixtures.service(yaml: yaml, registry: registry, folder: folder, logger: logger)
    }

    static func provider() -> CountingProvider {
        CountingProvider { x, y, zoom in zoom == 4 ? .noTile : CountingProvider.solid(x: x, y: y, zoom: zoom) }
    }

    static func metric(_ service: TileService, _ name: String, _ labels: [String: String] = [:]) async throws -> Double {
        let page = try await service.get("/metrics")
        return try PrometheusExposition(String(decoding: page.body, as: UTF8.self)).sum(name, matching: labels)
    }

    static func renders(_ service: TileService) async throws -> Double {
        try await metric(service, "tilelayer_renders_total", ["layer": "test"])
    }

    static func clear(_ service: TileService, _ layer: String = "test") async throws -> HTTPResponse {
        try await service.get("/admin/layers/\(layer)/clear-cache", method: .post, headers: [.authorization: "Bearer s3cret"])
    }

    @Test func replicaBServesTheRenderOfReplicaAWithoutRendering() async throws {
        let redis = try RedisServerProcess()
        let providerA = Self.provider(), providerB = Self.provider()
        let a = try replica(providerA, redis: redis), b = try replica(providerB, redis: redis)
        let fromA = try await a.get("/test/2/1/1@2x.png")
        #expect(fromA.status == .ok)
        await a.waitForCacheWrites()
        #expect(try await Self.renders(a) == 1)

        let fromB = try await b.get("/test/2/1/1@2x.png")
        #expect(fromB.status == .ok)
        #expect(Bool(fromB.body == fromA.body))
        #expect(fromB.headers[.eTag] == fromA.headers[.eTag])
        #expect(fromB.headers[.lastModified] == fromA.headers[.lastModified])
        #expect(fromB.headers[.cacheControl] == fromA.headers[.cacheControl])
        #expect(try await Self.renders(b) == 0)
        #expect(providerB.callCount == 0)
        #expect(try await Self.metric(b, "tilelayer_redis_hits_total", ["layer": "test"]) == 1)

        // "No tile" is shared too, and native tiles: B asks its source for neither.
        #expect(try await a.get("/test/4/1/1.png").status == .notFound)
        _ = try await a.get("/test/3/2/2.png")
        await a.waitForCacheWrites()
        #expect(try await b.get("/test/4/1/1.png").status == .notFound)
        #expect(try await b.get("/test/3/2/2.png").status == .ok)
        #expect(providerB.callCount == 0)
    }

    @Test func aClearOnOneReplicaClearsTheSharedTierForBoth() async throws {
        let redis = try RedisServerProcess()
        let a = try replica(Self.provider(), redis: redis), b = try replica(Self.provider(), redis: redis)
        _ = try await a.get("/test/2/1/1@2x.png")
        await a.waitForCacheWrites()
        // B finds A's render under generation 0: the generation its lookups last saw.
        _ = try await b.get("/test/2/1/1@2x.png")
        #expect(try await Self.renders(b) == 0)
        #expect(try await Self.clear(a).status == .noContent)
        #expect(try redis.connection().command(["GET", "tilelayer:gen:test"]).integerValue == 1)

        // B misses (a new generation, though the old value is still in Redis) and renders once;
        // A then serves B's render.
        _ = try await b.get("/test/2/1/1@2x.png")
        await b.waitForCacheWrites()
        #expect(try await Self.renders(b) == 1)
        _ = try await a.get("/test/2/1/1@2x.png")
        #expect(try await Self.renders(a) == 1, "A rendered before the clear only")
    }

    @Test(arguments: ["truncate", "flip", "garbage"])
    func aDamagedValueIsCountedDeletedAndFetchedAgainNeverServed(damage: String) async throws {
        let redis = try RedisServerProcess()
        let a = try replica(Self.provider(), redis: redis), b = try replica(Self.provider(), redis: redis)
        let original = try await a.get("/test/2/1/1@2x.png")
        await a.waitForCacheWrites()
        let connection = try redis.connection()
        // The render's four children are stored too; the render's own key:
        let keyBytes = Array("tilelayer:tile2:test:g0:2/1/1@2x".utf8)
        guard case .bytes(var value) = try connection.command([Array("GET".utf8), keyBytes]) else {
            Issue.record("expected the render in Redis"); return
        }
        switch damage {
        case "truncate": value.removeLast(100)
        case "flip": value[value.count / 2] ^= 0x10
        default: value = Array("not a tile".utf8)
        }
        _ = try connection.command([Array("SET".utf8), keyBytes, value])

        let response = try await b.get("/test/2/1/1@2x.png")
        #expect(response.status == .ok)
        #expect(Bool(response.body == original.body))
        #expect(response.headers[.eTag] == original.headers[.eTag])
        #expect(try await Self.metric(b, "tilelayer_redis_corrupt_total", ["layer": "test"]) == 1)
        #expect(try await Self.renders(b) == 1, "fetched again")
        await b.waitForCacheWrites()
        guard case .bytes(let mended) = try connection.command([Array("GET".utf8), keyBytes]) else {
            Issue.record("the mended value was not stored"); return
        }
        #expect(mended.count > value.count || damage != "truncate")
        if case .failure = DiskRecord.decode(mended) { Issue.record("the stored value is still damaged") }
    }

    @Test func redisDownMeansOwnTiersKeepServingCountedAndLoggedThenItReconnects() async throws {
        let redis = try RedisServerProcess()
        let log = CapturedLog()
        let a = try replica(Self.provider(), redis: redis, memory: false, logger: log.logger())
        #expect(try await a.get("/test/1/0/0@2x.png").status == .ok)
        await a.waitForCacheWrites()

        redis.stop()
        let started = Date()
        for y in 0 ..< 4 {
            let response = try await a.get("/test/2/1/\(y)@2x.png")
            #expect(response.status == .ok)
        }
        #expect(Date().timeIntervalSince(started) < 5, "a Redis that is down costs at most its timeout")
        #expect(try await Self.metric(a, "tilelayer_redis_errors_total") >= 1)
        #expect(log.lines(containing: "redis cache unavailable").count == 1, "logged once, not per request")
        // Clear-cache says the shared tier could not be cleared.
        #expect(try await Self.clear(a).status == .internalServerError)

        let storedWhileDown = try await Self.metric(a, "tilelayer_redis_stored_total", ["layer": "test"])
        try redis.start()  // empty: nothing persisted
        var reconnected = false
        for _ in 0 ..< 100 where !reconnected {
            try await Task.sleep(for: .milliseconds(100))
            _ = try await a.get("/test/1/0/0@2x.png")
            await a.waitForCacheWrites()
            reconnected = try await Self.metric(a, "tilelayer_redis_stored_total", ["layer": "test"]) > storedWhileDown
        }
        #expect(reconnected, "the pool reconnected by itself and stored again")
        // The value stored while the pool came back may carry the generation read before the
        // restart; one more round settles it (written, then read back below).
        _ = try await a.get("/test/1/0/0@2x.png")
        await a.waitForCacheWrites()
        let before = try await Self.renders(a)
        _ = try await a.get("/test/1/0/0@2x.png")
        #expect(try await Self.renders(a) == before, "served from Redis again")
        #expect(log.lines(containing: "reachable again").count >= 1)
    }

    @Test func aSlowRedisTimesOutAndTheTileIsServed() async throws {
        // A listener that accepts (through its backlog) and never answers: every command times out.
        let silent = try LiveServerSocket()
        var registry = SourceRegistry()
        let provider = Self.provider()
        registry.register("counting") { _, _ in .sync(provider) }
        let configuration = try Configuration.parse(yaml: """
        server: {cache: {redis: {url: "redis://127.0.0.1:\(silent.port)/0", timeoutMs: 100}}}
        layers:
          - {name: test, source: {type: counting}, maxZoom: 5, cache: {memory: false, redis: true}}
        """, file: folder.path + "/t.yml", registry: registry)
        let service = TileService(state: try ServiceState(configuration: configuration, registry: registry, logger: Fixtures.logger),
                                  logger: Fixtures.logger)
        let started = Date()
        #expect(try await service.get("/test/2/1/1@2x.png").status == .ok)
        #expect(Date().timeIntervalSince(started) < 2)
        #expect(try await Self.metric(service, "tilelayer_redis_errors_total", ["kind": "timeout"]) >= 1)
    }

    @Test func configurationErrorsNameTheKey() throws {
        let bad = #expect(throws: ConfigurationError.self) {
            try Fixtures.configuration("server: {cache: {redis: {url: \"http://h:6379\"}}}", in: folder)
        }
        #expect(bad?.key == "server.cache.redis.url")
        let port = #expect(throws: ConfigurationError.self) {
            try Fixtures.configuration("server: {cache: {redis: {url: \"redis://h:99999/0\"}}}", in: folder)
        }
        #expect(port?.message.contains("port") == true)
        let missing = #expect(throws: ConfigurationError.self) {
            try Fixtures.configuration("layers: [{name: a, source: {type: debug}, cache: {redis: true}}]", in: folder)
        }
        #expect(missing?.key == "layers[0].cache.redis")
        #expect(missing?.message.contains("server.cache.redis") == true)
        let parsed = try Fixtures.configuration(
            "server: {cache: {redis: {url: \"redis://:pw@cache.internal:6380/2\", ttlSeconds: 60, timeoutMs: 50}}}", in: folder)
        #expect(parsed.server.redis?.endpoint == RedisEndpoint(host: "cache.internal", port: 6380, database: 2, password: "pw"))
        #expect(parsed.server.redis?.ttlSeconds == 60)
        #expect(parsed.server.redis?.timeoutMilliseconds == 50)
    }

    @Test func theClientIsBinarySafeAndSpeaksTheCommandsTheTierUses() throws {
        let redis = try RedisServerProcess()
        let pool = RedisConnectionPool(endpoint: redis.endpoint, timeoutMilliseconds: 500)
        let value: [UInt8] = [0, 1, 2, 0, 255, 13, 10, 0]
        #expect(try pool.command([Array("SET".utf8), Array("k".utf8), value, Array("EX".utf8), Array("60".utf8)]) == .status("OK"))
        #expect(try pool.command(["GET", "k"]) == .bytes(value))
        #expect(try pool.command(["TTL", "k"]).integerValue ?? 0 > 0)
        #expect(try pool.command(["INCR", "n"]) == .integer(1))
        #expect(try pool.command(["DEL", "k"]) == .integer(1))
        #expect(try pool.command(["GET", "k"]) == .null)
        #expect(try pool.command(["PING"]) == .status("PONG"))
        #expect(throws: RedisError.self) { try pool.command(["INCR"]) }  // wrong arity: a server error
        // Pipelined: one write, the replies in order; an error reply throws once all are read.
        let replies = try pool.pipeline([["INCR", "n"], ["GET", "n"], ["GET", "absent"]].map { $0.map { Array($0.utf8) } })
        #expect(replies == [.integer(2), .bytes(Array("2".utf8)), .null])
        #expect(throws: RedisError.self) { try pool.pipeline([[Array("INCR".utf8)], [Array("INCR".utf8), Array("n".utf8)]]) }
        #expect(try pool.command(["GET", "n"]) == .bytes(Array("3".utf8)), "the connection kept in step after an error")
    }
}
