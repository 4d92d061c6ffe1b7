/// A synchronous provider that can also read a tile without waiting — on no disk, no lock, no
/// check of its file — when what it needs is in memory already (the kernel's page cache, its
/// own caches). An event loop asks it first; when it answers `.mustWait`, the ordinary
/// `tile(for:)` answers on a thread that may wait.
public protocol WithoutWaitingTileProvider: SyncTileProvider {
    /// The tile, if it can be read without waiting. Any failure is `.mustWait`: `tile(for:)`
    /// then meets it again and says what is wrong.
    func tileWithoutWaiting(for request: TileRequest) -> TileWithoutWaiting

    /// Whether it asks the page cache before it lends a tile where it lies (and so takes a
    /// residency to trust, `cache.residencySeconds`).
    var asksThePageCache: Bool { get }
}

extension WithoutWaitingTileProvider {
    /// By default a provider reads what it gives (a read that never waits), asking nothing.
    public var asksThePageCache: Bool { false }
}
