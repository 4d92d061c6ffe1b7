import Synchronization
import TileHTTP

/// A cached tile's 200 answer, built and encoded once (`HTTPResponse.prepared()`) and then
/// handed out as is: a hit builds no headers and no header text. Besides the tile, the answer
/// depends only on the layer's Cache-Control and the server's CORS setting, so it is kept with
/// those two values and rebuilt when either differs (a reload, or a tile shared by layers, like
/// the transparent empty tile). Kept inside the object that owns it (a tile's content, a file
/// version's fingerprint), not as an object of its own: a request for a tile not asked for
/// lately then finds its answer one cold object sooner.
struct PreparedTileAnswer: ~Copyable, Sendable {
    /// The CORS part of an answer: the `Access-Control-Allow-Origin` value, and whether it
    /// carries `Vary: Origin`.
    struct CORSKey: Equatable {
        let origin: String?
        let variesByOrigin: Bool
    }

    /// A prepared answer with the Cache-Control and CORS key it was made for.
    // Not private: Swift 6.3.1's debug build of a private type in a noncopyable struct stops with
    // "Global is external, but doesn't have external or weak linkage".
    struct Entry {
        let cacheControl: String
        let cors: CORSKey
        let response: HTTPResponse
    }

    private let entry = Mutex<Entry?>(nil)

    init() {}

    /// The answer for `layer` whose CORS headers `cors` names (the allowed origin, and whether it
    /// varies by origin), made and prepared (`HTTPResponse.prepared()`, or `prepared(bodyCount:)`
    /// for a file's answer) by `make` the first time (or after a change).
    func response(layer: Layer, cors: CORSKey, make: () -> HTTPResponse) -> HTTPResponse {
        let cacheControl = layer.cacheControl
        // Compared in place: only the answer leaves the lock (its boxes counted, one or two, not
        // the entry's strings as well; both event loops read here on every hot request).
        let kept = entry.withLock { entry -> HTTPResponse? in
            guard let entry, entry.cacheControl == cacheControl, entry.cors == cors else { return nil }
            return entry.response
        }
        if let kept { return kept }
        let made = make()
        entry.withLock { $0 = Entry(cacheControl: cacheControl, cors: cors, response: made) }
        return made
    }
}
