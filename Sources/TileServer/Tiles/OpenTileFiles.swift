import Sockets
import Synchronization
import TileProviders

/// The open files of a layer's tiles sent straight from disk, kept for `validity` seconds like
/// nginx's `open_file_cache`: a hot tile costs no `open`, `fstat` or `close`. After `validity`
/// the next request opens the path again, so a replaced file is served within that time (a
/// cache clear of the layer drops every open file at once).
final class OpenTileFiles: Sendable {
    private struct Entry {
        let file: TileFile
        let opened: UInt64
    }

    /// Seconds an open file is used before its path is opened again.
    let validity: Double
    /// Open files kept at most.
    let capacity: Int
    private let entries = Mutex<[TileKey: Entry]>([:])

    /// Default `validity`, seconds.
    static let defaultValidity = 1.0
    /// Default `capacity`: far below a process's descriptor limit, above a busy view's tiles.
    static let defaultCapacity = 512

    init(validity: Double = defaultValidity, capacity: Int = defaultCapacity) {
        self.validity = validity
        self.capacity = capacity
    }

    /// The open file of `key`: kept, or opened by `open` (nil: no tile, not kept).
    func file(
        for key: TileKey, open: () throws(TileProviderError) -> TileFile?
    ) throws(TileProviderError) -> TileFile? {
        let now = Monotonic.nanoseconds
        let horizon = UInt64(validity * 1e9)
        if let kept = entries.withLock({ $0[key] }), now &- kept.opened < horizon { return kept.file }
        guard let file = try open() else {
            entries.withLock { _ = $0.removeValue(forKey: key) }
            return nil
        }
        keep(file, for: key, openedAt: now)
        return file
    }

    /// Keeps `file`, just opened for `key`, for `validity` seconds.
    func keep(_ file: TileFile, for key: TileKey, openedAt now: UInt64 = Monotonic.nanoseconds) {
        let horizon = UInt64(validity * 1e9)
        // Files dropped here are released (closed) after the lock, not inside it (this runs on
        // event loops too).
        let dropped = entries.withLock { entries -> (all: [TileKey: Entry], replaced: Entry?) in
            var all: [TileKey: Entry] = [:]
            if entries.count >= capacity {
                // Drop what has expired; if nothing has, start over.
                all = entries
                entries = all.filter { now &- $0.value.opened < horizon }
                if entries.count >= capacity { entries = [:] }
            }
            return (all, entries.updateValue(Entry(file: file, opened: now), forKey: key))
        }
        _ = dropped
    }

    /// The kept open file of `key` while it is valid; nil otherwise (nothing is opened).
    func kept(for key: TileKey) -> TileFile? {
        let horizon = UInt64(validity * 1e9)
        guard let kept = entries.withLock({ $0[key] }), Monotonic.nanoseconds &- kept.opened < horizon else { return nil }
        return kept.file
    }

    /// Closes (releases) every kept file for which `matches` holds, all when nil.
    func removeAll(where matches: ((TileKey) -> Bool)? = nil) {
        entries.withLock { entries in
            if let matches { entries = entries.filter { !matches($0.key) } } else { entries.removeAll() }
        }
    }

    /// Files kept now.
    var count: Int { entries.withLock { $0.count } }
}
