import TileHTTP

/// A tile request planned once, on the event loop that parsed it: the layer of the state it
/// read, the cache key (stamped with the layer's generation), that state's CORS policy and the
/// layer's counters. Whatever must wait continues from it on a worker (nginx's phases resume,
/// they do not restart): nothing is looked up again.
struct TilePlan: Sendable {
    let request: HTTPRequest
    let layer: Layer
    /// The key, stamped (`TilePipeline.stamped`).
    let key: TileKey
    /// The CORS policy of the state the layer was found in: every answer to the request, a tile,
    /// "no tile" or an error, takes it from there.
    let cors: CORSPolicy
    let counters: LayerMetrics?
}
