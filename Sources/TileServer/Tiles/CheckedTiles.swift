import Synchronization
import TileProviders

/// The contents found to be whole tiles (`TileFormat.defect(in:)`), by content hash (XXH64,
/// the ETag's), length and format: bytes read again (an archive's tile asked for again, a tile
/// file read into the memory cache again) are walked once, not per read. The hash is made for
/// the ETag anyway; the walk (a PNG's CRCs) costs twice as much. Measured: an MBTiles tile read
/// past the memory cache took 311,909 instructions a request with the walk, 96,156 without.
final class CheckedTiles: Sendable {
    private struct Content: Hashable {
        let hash: UInt64
        let count: Int
        let format: TileFormat
    }

    private let table = Mutex<Set<Content>>([])

    /// Contents remembered; past this the table starts over (about 2 MB).
    static var capacity: Int { 65_536 }

    init() {}

    /// Whether bytes of content hash `hash` and length `count` were found a whole tile of `format`.
    func contains(hash: UInt64, count: Int, format: TileFormat) -> Bool {
        table.withLock { $0.contains(Content(hash: hash, count: count, format: format)) }
    }

    /// Whether `bytes`, of content hash `hash`, are a whole tile of `format` (walked only when not
    /// found so before).
    func isWholeTile(_ bytes: [UInt8], hash: UInt64, format: TileFormat) -> Bool {
        if contains(hash: hash, count: bytes.count, format: format) { return true }
        guard format.defect(in: bytes) == nil else { return false }
        insert(hash: hash, count: bytes.count, format: format)
        return true
    }

    /// Notes bytes of content hash `hash` and length `count` found a whole tile of `format`.
    func insert(hash: UInt64, count: Int, format: TileFormat) {
        // A full table starts over; the old one is released after the lock (this runs on event
        // loops too).
        let dropped = table.withLock { table -> Set<Content> in
            var old: Set<Content> = []
            if table.count >= Self.capacity { swap(&old, &table) }
            table.insert(Content(hash: hash, count: count, format: format))
            return old
        }
        _ = dropped
    }
}
