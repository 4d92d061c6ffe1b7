import TileHTTP

extension OGCEndpoint {
    /// A WMTS request: the capabilities, or a tile (KVP without the WMTS parameters, so that the
    /// rest are the layer's variables). Refusals are OWS exception reports.
    func wmtsResolution(_ request: HTTPRequest, _ route: WMTSRoute) -> OGCResolution {
        switch route {
        case .capabilities:
            return .answer(capabilities(request))
        case .keyValue:
            switch WMTSRequest.parse(kvp: request.queryItems) {
            case .failure(let exception): return .answer(exceptionReport(exception, to: request))
            case .success(.getCapabilities): return .answer(capabilities(request))
            case .success(.getTile(let tile)):
                return wmtsTile(request.keepingQuery { !WMTSRequest.parameterNames.contains($0.lowercased()) }, tile)
            }
        case .tile(let tile):
            return wmtsTile(request, tile)
        }
    }

    private func wmtsTile(_ request: HTTPRequest, _ tile: WMTSTileRequest) -> OGCResolution {
        switch tile.resolve(in: state.layers) {
        case .success(let route): return .tile(request, route)
        case .failure(let exception): return .answer(exceptionReport(exception, to: request))
        }
    }

    private func capabilities(_ request: HTTPRequest) -> HTTPResponse {
        documentAnswer(WMTSCapabilities.document(layers: state.layers.layers, baseURL: baseURL(for: request)),
                       contentType: "application/xml", to: request)
    }

    /// An OWS exception report, cached as briefly as the other answers about a bad request.
    private func exceptionReport(_ exception: WMTSException, to request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [.contentType: "application/xml", .cacheControl: ServiceError.requestErrorCacheControl]
        addCORS(to: &headers, for: request)
        return HTTPResponse(status: exception.code.status, headers: headers, body: Array(exception.report.utf8))
    }
}
