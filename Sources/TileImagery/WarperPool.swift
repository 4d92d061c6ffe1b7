import Synchronization

/// Lends `TileWarper`s of one raster, one tile at a time: a warper (its datasets) is never used
/// by two threads at once, whichever worker thread asks. Warpers are made when every existing
/// one is busy, so their number is the most tiles of the raster ever warped at once (bounded by
/// the server's worker lanes); a warper whose read failed is dropped, not lent again.
final class WarperPool: Sendable {
    private let idle = Mutex<[TileWarper]>([])
    private let make: @Sendable () -> TileWarper

    /// A pool that lends `first` first, and makes more with `make`.
    init(first: TileWarper, make: @escaping @Sendable () -> TileWarper) {
        idle.withLock { $0.append(first) }
        self.make = make
    }

    /// Runs `body` with a warper of its own.
    func withWarper<R>(_ body: (TileWarper) throws(ImageryError) -> R) throws(ImageryError) -> R {
        let warper = idle.withLock { $0.popLast() } ?? make()
        let result = try body(warper)
        idle.withLock { $0.append(warper) }
        return result
    }

    /// Warpers waiting to be lent.
    var idleCount: Int { idle.withLock { $0.count } }
}
