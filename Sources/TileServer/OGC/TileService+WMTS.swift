import TileHTTP

extension TileService {
    /// A WMTS request: the capabilities, or a tile through the same path as `/{layer}/{z}/{x}/{y}.png`
    /// (the same bytes, ETag and caching). Refusals are OWS exception reports.
    func wmtsResponse(
        _ request: HTTPRequest, _ route: WMTSRoute, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        switch route {
        case .capabilities:
            return capabilities(request)
        case .keyValue:
            switch WMTSRequest.parse(kvp: request.queryItems) {
            case .failure(let exception): return exceptionReport(exception)
            case .success(.getCapabilities): return capabilities(request)
            case .success(.getTile(let tile)):
                return wmtsTile(request.keepingQuery { !WMTSRequest.parameterNames.contains($0.lowercased()) }, tile,
                                completion: completion)
            }
        case .tile(let tile):
            return wmtsTile(request, tile, completion: completion)
        }
    }

    private func wmtsTile(
        _ request: HTTPRequest, _ tile: WMTSTileRequest, completion: @escaping @Sendable (HTTPResponse) -> Void
    ) -> HTTPResponse? {
        switch tile.resolve(in: state.layers) {
        case .success(let route): return tileResponse(request, route, completion: completion)
        case .failure(let exception): return exceptionReport(exception)
        }
    }

    private func capabilities(_ request: HTTPRequest) -> HTTPResponse {
        documentAnswer(WMTSCapabilities.document(layers: state.layers.layers, baseURL: baseURL(for: request)),
                       contentType: "application/xml")
    }

    private func exceptionReport(_ exception: WMTSException) -> HTTPResponse {
        var headers: HTTPHeaders = [.contentType: "application/xml"]
        addCORS(to: &headers)
        return HTTPResponse(status: exception.code.status, headers: headers, body: Array(exception.report.utf8))
    }
}
