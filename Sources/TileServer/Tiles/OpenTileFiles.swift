import Sockets
import Synchronization
import TileProviders

/// The open files of a layer's tiles sent straight from disk, kept for `validity` seconds like
/// nginx's `open_file_cache`: a hot tile costs no `open`, `fstat` or `close`. After `validity`
/// the next request opens the path again, so a replaced file is served within that time (a
/// cache clear of the layer drops every open file at once); a file found unchanged then stays
/// kept, with its fingerprint (`keep`). A file stays open `retention` (10 s) after its last
/// opening or renewal, for that renewal, then closes. How many are kept is bounded by
/// `capacity` and, across every layer's table, by the process's `OpenFileBudget`: when the
/// budget is spent, a table gives up its own oldest file for a new one, but keeps up to
/// `guaranteed` files whatever the others hold (one busy layer cannot starve the rest); when
/// connections need the descriptors, the budget asks the tables for files back (`giveBack`).
///
/// A kept file also keeps its fingerprint once an answer has needed it (`note(_:of:for:)`), so
/// the next request of the tile takes both from this one table instead of also looking up the
/// pipeline's fingerprints (another lock, which every event loop takes).
final class OpenTileFiles: Sendable {
    private struct Entry {
        let file: TileFile
        /// When it was opened, or last found unchanged (`keep`).
        var opened: UInt64
        /// The fingerprint of `file`'s version, once noted.
        var fingerprint: TileFingerprint?
    }

    /// A kept file, and its fingerprint when noted.
    struct Kept {
        let file: TileFile
        let fingerprint: TileFingerprint?
    }

    /// The kept files, and their keys in the order they were opened (oldest first, from
    /// `start`), so the oldest is dropped in O(1) when the table is full or it has expired: a
    /// working set larger than `capacity` costs an insert and a drop per file, not a rebuild of
    /// the table. A key kept again is listed again; its older listing is skipped when reached.
    private struct Table {
        var entries: [TileKey: Entry] = [:]
        var order: [(key: TileKey, opened: UInt64)] = []
        var start = 0

        /// Listings dropped before the list is compacted (then at least half of it).
        static let compactionThreshold = 1024

        /// Drops the oldest listing; its entry, if the listing is still its current one.
        mutating func dropOldest() -> Entry? {
            let oldest = order[start]
            start += 1
            if start >= Self.compactionThreshold && start * 2 >= order.count {
                order.removeFirst(start)
                start = 0
            }
            // One lookup: the listing's bucket is removed by its index.
            guard let index = entries.index(forKey: oldest.key), entries.values[index].opened == oldest.opened
            else { return nil }
            return entries.remove(at: index).value
        }
    }

    /// Seconds an open file is used before its path is opened again.
    let validity: Double
    /// Nanoseconds a kept file the page cache was found to hold whole is taken to still hold it
    /// (`TileFile.isCachedWhole(at:trusting:)`, `cache.residencySeconds`); 0: asked each time.
    let residency: UInt64
    /// Open files this table keeps at most (the budget may allow fewer).
    let capacity: Int
    /// The descriptors this table shares with the other layers' tables.
    private let budget: OpenFileBudget
    /// Files this table keeps even when the budget is spent.
    let guaranteed: Int
    /// `validity` in nanoseconds.
    private let horizon: UInt64
    /// Nanoseconds a file stays open after it was last opened or renewed, past `validity`, so
    /// that a tile asked for again is renewed (`keep`) rather than kept anew: like nginx's
    /// `open_file_cache … inactive=`, a file nobody asks for is closed after this.
    private let retention: UInt64

    /// Default seconds a file stays open after its last opening or renewal (at least `validity`).
    static let retentionSeconds = 10.0
    private let table = Mutex(Table())

    /// Default `validity`, seconds.
    static let defaultValidity = 1.0

    /// Default `guaranteed`: what the descriptor reserve (`OpenFileBudget.reservedDescriptors`)
    /// can give a dozen layers.
    static let defaultGuaranteed = 64

    init(
        validity: Double = defaultValidity, residency: Double = 0, capacity: Int = .max,
        budget: OpenFileBudget = .shared, guaranteed: Int = defaultGuaranteed, retention: Double = retentionSeconds
    ) {
        self.validity = validity
        self.residency = UInt64(residency * 1e9)
        self.capacity = capacity
        self.budget = budget
        self.guaranteed = guaranteed
        horizon = UInt64(validity * 1e9)
        self.retention = UInt64(max(validity, retention) * 1e9)
        budget.register(self)
    }

    deinit {
        budget.unregister(self)
        budget.release(table.withLock { $0.entries.count })
    }

    /// The open file of `key`: kept, or opened by `open` (nil: no tile, not kept). `now`: the
    /// time to take for both the lookup and the keep (a test's), else the clock's at each.
    func file(
        for key: TileKey, now: UInt64? = nil, open: () throws(TileProviderError) -> TileFile?
    ) throws(TileProviderError) -> TileFile? {
        if let kept = kept(for: key, now: now ?? Monotonic.nanoseconds) { return kept.file }
        guard let file = try open() else {
            let dropped = table.withLock { $0.entries.removeValue(forKey: key) }
            if dropped != nil { budget.release() }
            _ = dropped  // closed here, after the lock
            return nil
        }
        // Timed after the open, which may have waited.
        return keep(file, for: key, now: now ?? Monotonic.nanoseconds).file
    }

    /// Whether a file opened at `opened` is past `validity` at `now` (a file kept by another
    /// thread after `now` was read is not).
    private func hasExpired(_ opened: UInt64, at now: UInt64) -> Bool {
        Self.isPast(horizon, since: opened, at: now)
    }

    /// Whether `span` nanoseconds have passed since `start` at `now` (not when `start` is later,
    /// read on another thread after `now`).
    private static func isPast(_ span: UInt64, since start: UInt64, at now: UInt64) -> Bool {
        now > start && now - start >= span
    }

    /// Keeps `file`, just opened for `key`, for `validity` seconds, and returns what to send:
    /// when the file kept for `key` (past its validity, within its retention) is the same
    /// version (`FileIdentity`: device, inode, size, modification time), that one is renewed
    /// instead, with the fingerprint it carries, so the version is neither kept anew nor looked
    /// up again (`file` closes once released). Drops the oldest files when they are past
    /// `retention`, the table is full, or the budget is spent (with nothing of this table's left
    /// to drop, `file` is not kept: it closes once its answer is sent).
    @discardableResult
    func keep(_ file: TileFile, for key: TileKey, now: UInt64 = Monotonic.nanoseconds) -> Kept {
        // Validity 0 (`cache.openFileSeconds: 0`): nothing kept, no descriptor held past its answer.
        guard horizon > 0 else { return Kept(file: file, fingerprint: nil) }
        var dropped = Dropped()
        let kept = table.withLock { table -> Kept in
            // A key kept again keeps its bucket and its descriptor's share of the budget; its
            // older listing is skipped when reached.
            if let index = table.entries.index(forKey: key) {
                let old = table.entries.values[index]
                let renewed = old.file.identity == file.identity
                if renewed {
                    table.entries.values[index].opened = now
                } else {
                    table.entries.values[index] = Entry(file: file, opened: now, fingerprint: nil)
                    dropped.add(old)  // the version replaced closes after the lock
                }
                table.order.append((key, now))
                dropOldest(in: &table, at: now, whileCountReaches: .max, into: &dropped)
                return renewed ? Kept(file: old.file, fingerprint: old.fingerprint) : Kept(file: file, fingerprint: nil)
            }
            dropOldest(in: &table, at: now, whileCountReaches: capacity, into: &dropped)
            while !budget.claim(evenIfSpent: table.entries.count < guaranteed) {
                guard table.start < table.order.count else { return Kept(file: file, fingerprint: nil) }
                if let entry = table.dropOldest() { dropped.add(entry, releasing: budget) }
            }
            table.order.append((key, now))
            table.entries[key] = Entry(file: file, opened: now, fingerprint: nil)
            return Kept(file: file, fingerprint: nil)
        }
        _ = dropped
        return kept
    }

    /// Files dropped under the lock, released (closed) after it, not inside it (this runs on
    /// event loops too). Usually one: it needs no array.
    private struct Dropped {
        var first: Entry?
        var more: [Entry] = []

        /// Adds `entry`, whose descriptor's share of the budget another file takes over.
        mutating func add(_ entry: Entry) {
            if first == nil { first = entry } else { more.append(entry) }
        }

        /// Adds `entry`, giving its descriptor's share back to `budget`.
        mutating func add(_ entry: Entry, releasing budget: OpenFileBudget) {
            add(entry)
            budget.release()
        }
    }

    /// Drops the oldest listings while they are past `retention` at `now` or the table holds
    /// `limit` files.
    private func dropOldest(in table: inout Table, at now: UInt64, whileCountReaches limit: Int, into dropped: inout Dropped) {
        while table.start < table.order.count,
              table.entries.count >= limit || Self.isPast(retention, since: table.order[table.start].opened, at: now) {
            if let entry = table.dropOldest() { dropped.add(entry, releasing: budget) }
        }
    }

    /// The kept open file of `key` while it is valid, with its fingerprint when noted; nil
    /// otherwise (nothing is opened).
    func kept(for key: TileKey, now: UInt64 = Monotonic.nanoseconds) -> Kept? {
        guard let kept = table.withLock({ $0.entries[key] }), !hasExpired(kept.opened, at: now) else { return nil }
        return Kept(file: kept.file, fingerprint: kept.fingerprint)
    }

    /// Notes `fingerprint` as that of `file`, if `file` is still `key`'s kept file.
    func note(_ fingerprint: TileFingerprint, of file: TileFile, for key: TileKey) {
        table.withLock { table in
            guard let kept = table.entries[key], kept.file === file else { return }
            table.entries[key]?.fingerprint = fingerprint
        }
    }

    /// Closes (releases) up to `count` of the oldest kept files, down to `guaranteed`, for the
    /// connections (`OpenFileBudget.reclaim`); returns how many.
    func giveBack(upTo count: Int) -> Int {
        var dropped = Dropped()
        let closed = table.withLock { table -> Int in
            var closed = 0
            while closed < count, table.entries.count > guaranteed, table.start < table.order.count {
                if let entry = table.dropOldest() {
                    dropped.add(entry, releasing: budget)
                    closed += 1
                }
            }
            return closed
        }
        _ = dropped
        return closed
    }

    /// Closes (releases) every kept file for which `matches` holds, all when nil.
    func removeAll(where matches: ((TileKey) -> Bool)? = nil) {
        let (dropped, closing) = table.withLock { table -> ([TileKey: Entry], Int) in
            let all = table.entries
            if let matches { table.entries = all.filter { !matches($0.key) } } else { table = Table() }
            return (all, all.count - table.entries.count)
        }
        budget.release(closing)
        _ = dropped  // closed here, after the lock
    }

    /// Files kept now.
    var count: Int { table.withLock { $0.entries.count } }
}
