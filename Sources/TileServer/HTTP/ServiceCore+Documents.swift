import TileHTTP

extension ServiceCore {
    /// 200 with a JSON document.
    func jsonAnswer(_ value: JSONValue, to request: HTTPRequest) -> HTTPResponse {
        documentAnswer(value.serialized, contentType: "application/json", to: request)
    }

    /// 200 with a document that describes the layers (TileJSON, OGC capabilities): cacheable a
    /// minute, with CORS.
    func documentAnswer(_ text: String, contentType: String, to request: HTTPRequest) -> HTTPResponse {
        var headers: HTTPHeaders = [.contentType: contentType, .cacheControl: "public, max-age=60"]
        addCORS(to: &headers, for: request)
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
