import TileHTTP

extension PageEndpoint {
    /// `/{layer}.json`.
    func tileJSON(_ request: HTTPRequest, layer name: String) -> HTTPResponse {
        guard let layer = state.layers[name] else { return errorAnswer(.notFound("unknown layer \"\(name)\""), to: request) }
        return jsonAnswer(TileJSON.document(for: layer, baseURL: baseURL(for: request)), to: request)
    }

    /// `/index.json`.
    func tileJSONIndex(_ request: HTTPRequest) -> HTTPResponse {
        let base = baseURL(for: request)
        return jsonAnswer(.array(state.layers.layers.map { TileJSON.document(for: $0, baseURL: base) }), to: request)
    }
}
