import Sockets
import Synchronization
import TileProviders

/// The open files of a layer's tiles sent straight from disk, kept for `validity` seconds like
/// nginx's `open_file_cache`: a hot tile costs no `open`, `fstat` or `close`. After `validity`
/// the next request opens the path again, so a replaced file is served within that time (a
/// cache clear of the layer drops every open file at once). How many are kept is bounded by
/// `capacity` and, across every layer's table, by the process's `OpenFileBudget`: when the
/// budget is spent, a table gives up its own oldest file for a new one, but keeps up to
/// `guaranteed` files whatever the others hold (one busy layer cannot starve the rest).
///
/// A kept file also keeps its fingerprint once an answer has needed it (`note(_:of:for:)`), so
/// the next request of the tile takes both from this one table instead of also looking up the
/// pipeline's fingerprints (another lock, which every event loop takes).
final class OpenTileFiles: Sendable {
    private struct Entry {
        let file: TileFile
        let opened: UInt64
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
    /// Open files this table keeps at most (the budget may allow fewer).
    let capacity: Int
    /// The descriptors this table shares with the other layers' tables.
    private let budget: OpenFileBudget
    /// Files this table keeps even when the budget is spent.
    let guaranteed: Int
    /// `validity` in nanoseconds.
    private let horizon: UInt64
    private let table = Mutex(Table())

    /// Default `validity`, seconds.
    static let defaultValidity = 1.0

    /// Default `guaranteed`: what the descriptor reserve (`OpenFileBudget.reservedDescriptors`)
    /// can give a dozen layers.
    static let defaultGuaranteed = 64

    init(
        validity: Double = defaultValidity, capacity: Int = .max, budget: OpenFileBudget = .shared,
        guaranteed: Int = defaultGuaranteed
    ) {
        self.validity = validity
        self.capacity = capacity
        self.budget = budget
        self.guaranteed = guaranteed
        horizon = UInt64(validity * 1e9)
    }

    deinit {
        budget.release(table.withLock { $0.entries.count })
    }

    /// The open file of `key`: kept, or opened by `open` (nil: no tile, not kept).
    func file(
        for key: TileKey, open: () throws(TileProviderError) -> TileFile?
    ) throws(TileProviderError) -> TileFile? {
        if let kept = kept(for: key) { return kept.file }
        guard let file = try open() else {
            let dropped = table.withLock { $0.entries.removeValue(forKey: key) }
            if dropped != nil { budget.release() }
            _ = dropped  // closed here, after the lock
            return nil
        }
        keep(file, for: key)  // timed after the open, which may have waited
        return file
    }

    /// Whether a file opened at `opened` is past `validity` at `now` (a file kept by another
    /// thread after `now` was read is not).
    private func hasExpired(_ opened: UInt64, at now: UInt64) -> Bool {
        now > opened && now - opened >= horizon
    }

    /// Keeps `file`, just opened for `key`, for `validity` seconds, dropping the oldest files
    /// when they have expired, the table is full, or the budget is spent (with nothing of
    /// this table's left to drop, `file` is not kept: it closes once its answer is sent).
    func keep(_ file: TileFile, for key: TileKey) {
        // Validity 0 (`cache.openFileSeconds: 0`): nothing kept, no descriptor held past its answer.
        guard horizon > 0 else { return }
        let now = Monotonic.nanoseconds
        // Files dropped here are released (closed) after the lock, not inside it (this runs on
        // event loops too). In a full table a keep drops one file: it needs no array.
        var droppedFirst: Entry?
        var droppedMore: [Entry] = []
        func drop(_ entry: Entry) {
            if droppedFirst == nil { droppedFirst = entry } else { droppedMore.append(entry) }
            budget.release()
        }
        let replaced = table.withLock { table -> Entry? in
            while table.start < table.order.count,
                  table.entries.count >= capacity || hasExpired(table.order[table.start].opened, at: now) {
                if let entry = table.dropOldest() { drop(entry) }
            }
            let entry = Entry(file: file, opened: now, fingerprint: nil)
            // A key kept again reuses its descriptor's share of the budget (and its bucket).
            if let index = table.entries.index(forKey: key) {
                table.order.append((key, now))
                defer { table.entries.values[index] = entry }
                return table.entries.values[index]
            }
            while !budget.claim(evenIfSpent: table.entries.count < guaranteed) {
                guard table.start < table.order.count else { return nil }
                if let entry = table.dropOldest() { drop(entry) }
            }
            table.order.append((key, now))
            table.entries[key] = entry
            return nil
        }
        _ = (droppedFirst, droppedMore, replaced)
    }

    /// The kept open file of `key` while it is valid, with its fingerprint when noted; nil
    /// otherwise (nothing is opened).
    func kept(for key: TileKey) -> Kept? {
        let now = Monotonic.nanoseconds
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
