/// How `server.cache.memoryBytes` is shared, so that it bounds all tile memory: decoded tiles
/// kept for `/static` views get a quarter, at most `maxDecodedBytes`; encoded answers the rest.
struct MemoryBudget: Sendable, Equatable {
    /// Bytes of encoded answers (the tile cache).
    let tiles: Int
    /// Bytes of decoded tiles for views.
    let decodedTiles: Int

    /// 64 MB holds 256 decoded 256 px tiles, a dozen 1024×768 views.
    static let maxDecodedBytes = 64 << 20

    init(memoryBytes: Int) {
        decodedTiles = min(Self.maxDecodedBytes, memoryBytes / 4)
        tiles = memoryBytes - decodedTiles
    }
}
