import Dispatch
import Hiredis
import Logging
import Synchronization
import TileCache

/// The shared tile tier on Redis (`server.cache.redis`), for the layers that opt in with
/// `cache: {redis: true}`: what one replica renders or fetches, every replica finds.
///
/// Keys: `tilelayer:tile2:{layer}:g{generation}:{z}/{x}/{y}[@2x][?name=value…]` ("tile2": values of
/// `DiskRecord`'s format 2, so replicas of an earlier version, which read the first format under
/// `tilelayer:tile:`, never meet them in a rolling upgrade), where the
/// generation is the counter `tilelayer:gen:{layer}` kept in Redis and read on every lookup: a
/// clear on any replica (`INCR`) is seen by every replica's next lookup, and a fill that read the
/// older generation stores under the older key, which nobody reads again (it expires after
/// `ttlSeconds`). A lookup pipelines the counter's GET with the tile's GET under the generation
/// it saw last: one round trip, and a second one only when the generation moved. Values are
/// `DiskRecord`s: the body, then magic, kind, times, body length and XXH64s of body and trailer,
/// so a truncated or damaged value is detected, counted, deleted and fetched again, never served.
///
/// Every call blocks for up to `timeoutMs`: lookups run on the worker that fills the tile,
/// writes on a serial queue of the tier's own, never on an event loop. When Redis is down or
/// slow a lookup is a miss (the replica serves from its own tiers), the failure is counted in
/// `/metrics` and logged at most once a minute, and the pool reconnects by itself.
final class RedisTileTier: Sendable {
    /// What Redis holds for a key.
    enum Lookup {
        /// A fresh copy.
        case hit(TileOutcome)
        /// A copy older than the layer's lifetime: refetch, keep it for stale-if-error.
        case expired(DiskRecord, generation: Int)
        /// Nothing: fill, then store under `generation`.
        case miss(generation: Int)
        /// Redis did not answer: fill, store nothing.
        case unavailable
    }

    let settings: RedisCacheSettings
    let pool: RedisConnectionPool
    let metrics: RedisMetrics
    private let logger: Logger
    private let problems = RedisProblemLog()
    private let writes = DispatchQueue(label: "tilelayer.redis-writes", qos: .utility)
    private let pendingWrites = Atomic<Int>(0)
    /// The generation each layer's last lookup read.
    private let seenGenerations = Mutex<[String: Int]>([:])
    /// Writes queued beyond this are dropped (counted): a slow Redis must not hold tiles in memory.
    static let maxPendingWrites = 1024

    init(settings: RedisCacheSettings, metrics: RedisMetrics, logger: Logger) {
        self.settings = settings
        self.pool = RedisConnectionPool(endpoint: settings.endpoint, timeoutMilliseconds: settings.timeoutMilliseconds,
                                        maxIdle: settings.connections)
        self.metrics = metrics
        self.logger = logger
    }

    /// The counter key of `layer`'s generation.
    static func generationKey(layer: String) -> String { "tilelayer:gen:\(layer)" }

    /// The key of `key`'s value under `generation`.
    static func tileKey(_ key: TileKey, generation: Int) -> String {
        var tile = "\(key.tile.z)/\(key.tile.x)/\(key.tile.y)"
        if key.scale != 1 { tile += "@\(key.scale)x" }
        if !key.variables.isEmpty {
            tile += "?" + key.variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
        }
        return "tilelayer:tile2:\(key.layer):g\(generation):\(tile)"
    }

    /// Writes queued and not yet sent.
    var pendingWriteCount: Int { pendingWrites.load(ordering: .relaxed) }

    /// The generation now, then the value of `key` under it. Blocking: call it on a worker.
    func lookup(_ key: TileKey, lifetime: Int?) -> Lookup {
        let layer = key.layer
        let generation: Int
        let value: RedisReply
        let get = Array("GET".utf8)
        let seen = seenGenerations.withLock { $0[layer] } ?? 0
        do {
            var replies = try pool.pipeline([[get, Array(Self.generationKey(layer: layer).utf8)],
                                             [get, Array(Self.tileKey(key, generation: seen).utf8)]])
            generation = replies[0].integerValue ?? 0
            if generation == seen {
                value = replies.removeLast()  // moved out: the value's bytes become the record's body in place
            } else {
                seenGenerations.withLock { $0[layer] = generation }
                value = try pool.command([get, Array(Self.tileKey(key, generation: generation).utf8)])
            }
        } catch {
            failed(error, doing: "GET", layer: layer)
            return .unavailable
        }
        problems.succeeded(logger: logger, endpoint: settings.endpoint)
        guard case .bytes(let bytes) = consume value else {
            metrics.miss(layer: layer)
            return .miss(generation: generation)
        }
        let count = bytes.count
        switch DiskRecord.decode(consume bytes) {  // its last use: the body is its bytes, not a copy
        case .failure(let problem):
            metrics.corrupt(layer: layer)
            logger.warning("redis cache: corrupt value deleted; fetching the tile again",
                           metadata: ["layer": "\(layer)", "tile": "\(key)", "reason": "\(problem.reason)", "bytes": "\(count)"])
            _ = try? pool.command(["DEL", Self.tileKey(key, generation: generation)])
            return .miss(generation: generation)
        case .success(let record):
            if let lifetime, LayerDiskTier.now() - record.storedAt >= lifetime {
                metrics.miss(layer: layer)
                return .expired(record, generation: generation)
            }
            metrics.hit(layer: layer)
            return .hit(record.outcome)
        }
    }

    /// Queues `SET key value EX ttlSeconds` of `outcome` (tiles and "no tile"; stale copies and
    /// "not available now" are never stored) under the generation its lookup read.
    func storeLater(_ outcome: TileOutcome, for key: TileKey, generation: Int) {
        guard let record = DiskRecord(outcome, storedAt: outcome.servedTile?.storedAt ?? LayerDiskTier.now()) else { return }
        guard pendingWrites.add(1, ordering: .relaxed).newValue <= Self.maxPendingWrites else {
            pendingWrites.subtract(1, ordering: .relaxed)
            metrics.error(kind: "dropped")
            return
        }
        writes.async { [self] in
            defer { pendingWrites.subtract(1, ordering: .relaxed) }
            let arguments: [[UInt8]] = [Array("SET".utf8), Array(Self.tileKey(key, generation: generation).utf8), record.encoded(),
                                        Array("EX".utf8), Array("\(settings.ttlSeconds)".utf8)]
            do throws(RedisError) {
                _ = try pool.command(arguments)
                metrics.stored(layer: key.layer)
            } catch {
                failed(error, doing: "SET", layer: key.layer)
            }
        }
    }

    /// Moves `layer` to a new generation (`INCR`): every replica's next lookup misses its older
    /// tiles. Blocking: call it on a Dispatch thread.
    func clear(layer: String) -> Result<Int, RedisError> {
        do {
            let reply = try pool.command(["INCR", Self.generationKey(layer: layer)])
            return .success(reply.integerValue ?? 0)
        } catch {
            failed(error, doing: "INCR", layer: layer)
            return .failure(error)
        }
    }

    /// Suspends until every queued write was sent (or failed).
    func waitForWrites(below limit: Int = 0) async {
        while pendingWriteCount > limit { try? await Task.sleep(for: .milliseconds(2)) }
    }

    private func failed(_ error: RedisError, doing command: String, layer: String) {
        metrics.error(kind: error.kind)
        problems.failed(error, command: command, layer: layer, logger: logger, endpoint: settings.endpoint)
    }
}
