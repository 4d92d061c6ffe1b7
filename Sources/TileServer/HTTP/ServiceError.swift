import TileHTTP
import TileProviders

/// Every reason the service answers with an error. `TileService.errorAnswer(_:to:)` is the one
/// place these become HTTP answers: status, text body, `Cache-Control` and CORS decided there.
enum ServiceError: Error, Sendable {
    /// Nothing lives at this path (an unknown route, layer or asset; a tile outside the layer's
    /// zoom range or the grid): 404 with short caching.
    case notFound(String)
    /// The path or query has the right shape and a wrong value: 400 with short caching.
    case badRequest(String)
    /// The route exists, the method does not: 405 with `Allow`.
    case methodNotAllowed(method: String, allow: String)
    /// A request body on a route that takes none (every route but admin): 413 with short caching.
    case bodyNotTaken
    /// The admin token is missing or wrong: 401, never stored.
    case unauthorized
    /// The layer has no tile here: its cacheable 404 (the layer's `Cache-Control`).
    case noTile(layer: String, cacheControl: String)
    /// Not available now (a source, or a tile of a view): 503 with `Retry-After`, never stored.
    case unavailable(String, retryAfter: Int)
    /// A tile source failed: 502 when it gave bytes that are not a tile or an upstream fault,
    /// else 500; logged here, once.
    case tileFailed(TileFailure, layer: String)
    /// A reload was refused: 422, the old configuration stays.
    case reloadRefused(String)
    /// Anything else the server could not do (a disk that cannot be cleared, an encoder that
    /// failed): 500, logged here, once.
    case internalError(String)

    /// `Cache-Control` of 4xx answers about the request itself: short, so a reload that adds a
    /// layer or a route is seen soon even through a shared cache.
    static let requestErrorCacheControl = "public, max-age=10"
    /// `Cache-Control` of answers that must not be kept (5xx, 503, 401).
    static let uncacheable = "no-store"
}

extension TileProviderError {
    /// The status of a tile that failed so: 502 when the source gave something that is not a
    /// tile or its upstream failed for good, 500 when the server's own side (a file, a database,
    /// the configuration, the renderer) failed.
    var status: HTTPStatus {
        switch self {
        case .notPNG, .notFormat, .undecodable, .upstream, .corruptArchive, .damaged: return .badGateway
        default: return .internalServerError
        }
    }
}
