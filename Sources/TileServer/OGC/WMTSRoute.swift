/// What a path under `/wmts` names. Pure: no layer lookups.
public enum WMTSRoute: Sendable, Equatable {
    /// `/wmts?…`: an operation in the KVP encoding (the query says which).
    case keyValue
    /// `/wmts/1.0.0/WMTSCapabilities.xml`: the RESTful `GetCapabilities`.
    case capabilities
    /// `/wmts/1.0.0/{layer}/{style}/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.{ext}`.
    case tile(WMTSTileRequest)

    /// The first path segment.
    static let prefix = "wmts"

    /// The route for `segments` (starting with `prefix`).
    static func match(_ segments: [String]) -> RouteMatch {
        let rest = Array(segments.dropFirst())
        if rest.isEmpty || rest == [""] { return .route(.wmts(.keyValue)) }
        guard rest.first == WMTSRequest.version else { return .notFound("no such WMTS path (WMTS lives under /wmts/1.0.0/)") }
        if rest == [WMTSRequest.version, "WMTSCapabilities.xml"] { return .route(.wmts(.capabilities)) }
        guard rest.count == 7, let dot = rest[6].lastIndex(of: ".") else {
            return .notFound("no such WMTS path (tiles are /wmts/1.0.0/{layer}/default/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.{ext})")
        }
        let request = WMTSTileRequest(
            layer: rest[1], style: rest[2], format: .fileExtension(String(rest[6][rest[6].index(after: dot)...])),
            tileMatrixSet: rest[3], tileMatrix: rest[4], tileRow: rest[5], tileCol: String(rest[6][..<dot]))
        return .route(.wmts(.tile(request)))
    }
}
