import TileHTTP

/// Who may read answers from a browser (`server.cors`): any origin (`*`), one origin, a list
/// of origins, or nobody (CORS off). Decided once per configuration.
struct CORSPolicy: Sendable {
    /// The `Access-Control-Allow-Origin` of every answer ("*" or one origin); nil for a list or off.
    let fixed: String?
    /// The allowed origins of the list form (empty otherwise).
    let origins: Set<String>

    init(_ settings: ServerSettings) {
        fixed = settings.cors.isEmpty ? nil : settings.cors
        origins = Set(settings.corsOrigins)
    }

    /// `Access-Control-Allow-Origin` for `request`: the fixed value, or the request's `Origin`
    /// when the list holds it; nil for no header.
    func allowedOrigin(for request: HTTPRequest) -> String? {
        if let fixed { return fixed }
        guard !origins.isEmpty, let origin = request.headers[.origin], origins.contains(origin) else {
            return nil
        }
        return origin
    }

    /// Whether answers differ by the request's `Origin` (the list form): they then carry
    /// `Vary: Origin`, so a shared cache keeps one copy per origin.
    var variesByOrigin: Bool { !origins.isEmpty }

    /// What a tile's prepared answer depends on: the allowed origin for `request` and whether
    /// answers vary by origin (compared, never concatenated, per request).
    func answerKey(for request: HTTPRequest) -> PreparedTileAnswer.CORSKey {
        PreparedTileAnswer.CORSKey(origin: allowedOrigin(for: request), variesByOrigin: variesByOrigin)
    }

    /// Adds the CORS headers of an answer to `request`.
    func addHeaders(to headers: inout HTTPHeaders, for request: HTTPRequest) {
        if let origin = allowedOrigin(for: request) { headers.add(.accessControlAllowOrigin, origin) }
        if variesByOrigin { headers.add(.vary, "Origin") }
    }
}
