/// How the memory cache took part in a tile answer; the access log's `cache` field.
enum TileCacheUse: String, Sendable {
    /// Served from the cache.
    case hit
    /// Not stored: this request started the fill.
    case miss
    /// Not stored, but a fill was under way: this request waited for it.
    case coalesced
    /// The layer does not use the memory cache.
    case bypass

    /// An answer the memory cache did not give (the source's, past the cache or through a fill
    /// this request started): a miss for a layer with a memory cache (`cached`), else a bypass.
    static func notHit(cached: Bool) -> TileCacheUse { cached ? .miss : .bypass }
}
