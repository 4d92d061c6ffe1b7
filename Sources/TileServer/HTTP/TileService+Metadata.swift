import TileHTTP

extension TileService {
    /// `/{layer}.json`.
    func tileJSON(_ request: HTTPRequest, layer name: String) -> HTTPResponse {
        guard let layer = state.layers[name] else { return errorResponse(.notFound, "unknown layer \"\(name)\"") }
        return jsonAnswer(TileJSON.document(for: layer, baseURL: baseURL(for: request)))
    }

    /// `/index.json`.
    func tileJSONIndex(_ request: HTTPRequest) -> HTTPResponse {
        let base = baseURL(for: request)
        return jsonAnswer(.array(state.layers.layers.map { TileJSON.document(for: $0, baseURL: base) }))
    }

    /// 200 with a JSON document.
    func jsonAnswer(_ value: JSONValue) -> HTTPResponse {
        documentAnswer(value.serialized, contentType: "application/json")
    }

    /// 200 with a document that describes the layers: cacheable a minute, with CORS.
    func documentAnswer(_ text: String, contentType: String) -> HTTPResponse {
        var headers: HTTPHeaders = [.contentType: contentType, .cacheControl: "public, max-age=60"]
        addCORS(to: &headers)
        return HTTPResponse(status: .ok, headers: headers, body: Array(text.utf8))
    }

    /// The base of absolute URLs: the configured public URL, else the request's Host when the
    /// configuration trusts it (no Host-header poisoning), else the loopback address.
    func baseURL(for request: HTTPRequest) -> String {
        if let publicURL = state.server.publicURL { return publicURL }
        if let host = request.headers[.host]?.lowercased(), HostAllowList.allows(host, state.server.allowedHosts) {
            return "http://\(host)"
        }
        return "http://localhost:\(state.server.port)"
    }
}
