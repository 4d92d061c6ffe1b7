import Dispatch
import Logging
import Synchronization
import TileCache

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One layer's disk tier (`cache.disk`): tiles and "no tile" answers in `{folder}/{layer}/`,
/// read on the caller's Dispatch thread, written later on a serial queue of its own.
///
/// A disk that fails (unwritable, full, unreadable) turns the tier off for `retryInterval`
/// with one log line; requests carry on memory-only. A corrupt file is deleted, logged and
/// counts as a miss. The generation counter keeps a fill that began before a clear from
/// storing its (older) tile after it; a clear runs on the write queue, so a write is wholly
/// before it (and removed) or wholly after it (and checked against the new generation). Only
/// the layer build that owns the tier writes: a reload that rebuilds the layer over the same
/// folder hands the tier to the new build, and the old one's late writes are dropped.
final class LayerDiskTier: Sendable {
    /// What the disk holds for a key.
    enum Lookup {
        /// Nothing (or the tier is off).
        case none
        /// A copy younger than the layer's maxAge.
        case fresh(TileOutcome)
        /// An expired copy: refetch, but keep it for stale-if-error.
        case expired(DiskRecord)
    }

    /// The layer's name.
    let layer: String
    /// The files.
    let store: DiskTileStore<TileKey>
    /// Seconds the tier stays off after a disk error before it tries again.
    static let retryInterval = 60

    private let generationCounter = Atomic<Int>(0)
    /// The `Layer.build` whose writes are stored (0: any).
    private let owner = Atomic<Int>(0)
    private let pendingWrites = Atomic<Int>(0)
    /// When the tier is off: the time (seconds since 1970) it tries again; nil when on.
    private let offUntil = Mutex<Int?>(nil)
    private let queue: DispatchQueue

    /// The tier of `layer` under `folder` (the configured `cache.disk`).
    init(folder: String, layer: String) {
        self.layer = layer
        self.store = DiskTileStore(root: Self.root(folder: folder, layer: layer), relativePath: TileDiskLayout.relativePath(of:),
                                   key: { TileDiskLayout.key(atRelativePath: $0, layer: layer) })
        self.queue = DispatchQueue(label: "tilelayer.disk-tier.\(layer)", qos: .utility)
    }

    /// The folder of `layer`'s files under the configured `cache.disk`.
    static func root(folder: String, layer: String) -> String {
        let base = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        return base + "/" + layer
    }

    /// Bumped by every clear; a write queued under an older generation is dropped.
    var generation: Int { generationCounter.load(ordering: .acquiring) }
    /// Writes queued and not yet done.
    var pendingWriteCount: Int { pendingWrites.load(ordering: .relaxed) }

    /// Seconds since 1970.
    static func now() -> Int { Int(time(nil)) }

    /// The stored answer for `key`, fresh when younger than `maxAge` seconds. Blocking file I/O:
    /// call it on a Dispatch thread, never on the Swift-concurrency pool.
    func lookup(_ key: TileKey, maxAge: Int, logger: Logger, counters: LayerMetrics? = nil) -> Lookup {
        guard isOn, TileDiskLayout.isStorable(key) else { return .none }
        let record: DiskRecord?
        do {
            record = try store.read(key)
        } catch {
            if case .corrupt = error {
                counters?.diskCorrupt.increment()
                logger.warning("disk cache: corrupt file deleted; fetching the tile again",
                               metadata: ["layer": "\(layer)", "tile": "\(key)", "error": "\(error)"])
            } else {
                counters?.diskReadFailures.increment()
                turnOff(error, logger: logger)
            }
            return .none
        }
        guard let record else { return .none }
        return Self.now() - record.storedAt < maxAge ? .fresh(record.outcome) : .expired(record)
    }

    /// Hands the tier to the layer build `build`: from now on only its writes are stored.
    func adopt(owner build: Int) {
        owner.store(build, ordering: .releasing)
    }

    /// Queues a write of `outcome` (a tile or "no tile"; anything else is ignored) made by the
    /// layer build `writer`, dropped when the layer was cleared after `generation` was read, the
    /// tier belongs to another build, or the tier is off.
    func storeLater(
        _ outcome: TileOutcome, for key: TileKey, generation: Int, writer: Int, logger: Logger, counters: LayerMetrics? = nil
    ) {
        guard TileDiskLayout.isStorable(key), isOn, let record = DiskRecord(outcome, storedAt: Self.now()) else { return }
        pendingWrites.add(1, ordering: .relaxed)
        queue.async { [self] in
            defer { pendingWrites.subtract(1, ordering: .relaxed) }
            let current = owner.load(ordering: .acquiring)
            guard generation == self.generation, current == 0 || current == writer, isOn else { return }
            do throws(CacheError) {
                try store.write(record, for: key)
                let wasOff = offUntil.withLock { state in defer { state = nil }; return state != nil }
                if wasOff { logger.notice("disk cache writable again", metadata: ["layer": "\(layer)", "folder": "\(store.root)"]) }
            } catch {
                counters?.diskWriteFailures.increment()
                turnOff(error, logger: logger)
            }
        }
    }

    /// Deletes the stored answers for which `matches` holds (all when nil), on the write queue:
    /// writes queued before run first (and are deleted), writes queued later are dropped (their
    /// generation is older). Blocking file I/O: waits for the queued writes.
    func clear(where matches: (@Sendable (TileKey) -> Bool)?) -> Result<Int?, CacheError> {
        queue.sync {
            generationCounter.add(1, ordering: .releasing)
            return Result { () throws(CacheError) in try store.removeAll(where: matches) }
        }
    }

    /// Suspends until at most `limit` writes are queued (a seeder's back-pressure; 0 = all done).
    func waitForWrites(below limit: Int = 0) async {
        while pendingWriteCount > limit { try? await Task.sleep(for: .milliseconds(5)) }
    }

    private var isOn: Bool {
        offUntil.withLock { state in
            guard let until = state else { return true }
            return Self.now() >= until  // time to try again; a failure turns it off once more
        }
    }

    /// Turns the tier off for `retryInterval`; logs only when it was on.
    private func turnOff(_ error: CacheError, logger: Logger) {
        let wasOn = offUntil.withLock { state in
            defer { state = Self.now() + Self.retryInterval }
            return state == nil
        }
        guard wasOn else { return }
        logger.error("disk cache failed; serving from memory only and retrying in \(Self.retryInterval) s",
                     metadata: ["layer": "\(layer)", "folder": "\(store.root)", "error": "\(error)"])
    }
}

extension DiskRecord {
    /// The record of a storable outcome; nil for "not available now", stale copies, and a tile
    /// whose memory-cache copy cannot be read back (then no tier stores it: nothing wrong is kept).
    init?(_ outcome: TileOutcome, storedAt: Int) {
        switch outcome {
        case .tile(let tile) where tile.staleAge == nil:
            guard let body = try? tile.storedBytes() else { return nil }
            self.init(kind: .tile, body: body, storedAt: storedAt, lastModified: tile.lastModified, bodyHash: tile.contentHash)
        case .noTile:
            self.init(kind: .noTile, storedAt: storedAt)
        default:
            return nil
        }
    }

    /// The outcome it stores, with its ETag (content hash) and Last-Modified as first served.
    var outcome: TileOutcome {
        guard kind == .tile else { return .noTile }
        var tile = ServedTile(body: body, contentHash: bodyHash, lastModified: lastModified)
        tile.storedAt = storedAt
        return .tile(tile)
    }
}
