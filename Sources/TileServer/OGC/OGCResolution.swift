import TileHTTP

/// What a WMTS or OGC API request comes to: an answer made at once (a document, a refusal), or
/// a tile of the XYZ path (the request as that path should see it, and the tile).
enum OGCResolution {
    case answer(HTTPResponse)
    case tile(HTTPRequest, TileRoute)
}

extension TileService {
    /// An OGC route's answer on the event loop: documents and refusals at once (pure), a tile
    /// when `tileResponseWithoutWaiting` has it; nil sends the request to the workers.
    func ogcResponseWithoutWaiting(_ request: HTTPRequest, _ route: Route) -> HTTPResponse? {
        switch resolution(request, route) {
        case .answer(let response): return response
        case .tile(let tileRequest, let tile): return tileResponseWithoutWaiting(tileRequest, tile)
        }
    }

    /// An OGC route's answer on a worker: a tile through the same path as `/{layer}/{z}/{x}/{y}.png`
    /// (the same bytes, ETag and caching).
    func ogcResponse(
        _ request: HTTPRequest, _ route: Route, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        switch resolution(request, route) {
        case .answer(let response): return response
        case .tile(let tileRequest, let tile): return tileResponse(tileRequest, tile, completion: completion)
        }
    }

    private func resolution(_ request: HTTPRequest, _ route: Route) -> OGCResolution {
        switch route {
        case .wmts(let wmts): return wmtsResolution(request, wmts)
        case .ogcAPI(let ogc): return ogcAPIResolution(request, ogc)
        default: preconditionFailure("\(route) is not an OGC route")
        }
    }
}
