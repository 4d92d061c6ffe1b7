import TileHTTP

/// What a WMTS or OGC API request comes to: an answer made at once (a document, a refusal), or
/// a tile of the XYZ path (the request as that path should see it, and the tile).
enum OGCResolution {
    case answer(HTTPResponse)
    case tile(HTTPRequest, TileRoute)
}

/// WMTS 1.0.0 and OGC API – Tiles: their documents and refusals, and the tiles they name, which
/// the tile endpoint answers as the XYZ tiles they are.
struct OGCEndpoint: ServiceEndpoint {
    let core: ServiceCore

    /// What an OGC route comes to: a document or a refusal (pure), or a tile of the XYZ path
    /// (the same bytes, ETag and caching as `/{layer}/{z}/{x}/{y}.png`).
    func resolution(_ request: HTTPRequest, _ route: Route) -> OGCResolution {
        switch route {
        case .wmts(let wmts): return wmtsResolution(request, wmts)
        case .ogcAPI(let ogc): return ogcAPIResolution(request, ogc)
        default: preconditionFailure("\(route) is not an OGC route")
        }
    }
}
