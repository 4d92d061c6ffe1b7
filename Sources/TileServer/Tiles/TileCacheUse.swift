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

    /// A tile sent past the memory cache (a tile file, an archive tile read on the loop): a miss
    /// for a layer with a memory cache (`cached`), else a bypass.
    static func pastTheCache(cached: Bool) -> TileCacheUse { cached ? .miss : .bypass }
}
