import TileProviders

/// A tile request as named by its URL.
public struct TileRoute: Sendable, Equatable {
    /// The layer named in the path; nil for the default layer.
    public var layer: String?
    public var z: Int
    public var x: Int
    public var y: Int
    /// 1 for 256 px, 2 for `@2x` (512 px).
    public var scale: Int
    /// The format the URL's extension names; nil: the layer's (OGC and WMTS tile URLs).
    public var format: TileFormat? = nil
}

/// What a request path names.
public enum Route: Sendable, Equatable {
    /// `/`: the front page.
    case index
    /// `/healthz`: liveness.
    case health
    /// `/readyz`: readiness for a load balancer (503 while shutting down).
    case readiness
    /// `/index.json`: every layer's TileJSON.
    case tileJSONIndex
    /// `/{layer}.json`.
    case tileJSON(layer: String)
    /// `/{z}/{x}/{y}.{ext}` and `/{layer}/{z}/{x}/{y}.{ext}` (and `@2x`).
    case tile(TileRoute)
    /// `/static/{layer}/{camera}/{w}x{h}[@2x].png|json`: a rendered or described map view.
    case staticMap(StaticRoute)
    /// `/camera/{layer}/{camera}/{w}x{h}.json`: the SDK's camera for a view, as JSON.
    case camera(StaticRoute)
    /// `/metrics`: Prometheus text exposition.
    case metrics
    /// `/wmts…`: WMTS 1.0.0 capabilities and tiles.
    case wmts(WMTSRoute)
    /// `/ogc…`: OGC API – Tiles 1.0 documents and tiles.
    case ogcAPI(OGCAPIRoute)
    /// `POST /admin/layers/{layer}/clear-cache`.
    case clearCache(layer: String)
    /// `POST /admin/reload`.
    case reload

    /// Whether the route changes state (admin, POST only) rather than reading.
    public var isAdmin: Bool {
        switch self {
        case .clearCache, .reload: return true
        default: return false
        }
    }
    /// `/assets/{path…}`: a file of the front page (Leaflet), e.g. `["leaflet", "leaflet.js"]`.
    case asset(path: [String])
}

/// The router's answer: a route, or why there is none.
public enum RouteMatch: Sendable, Equatable {
    case route(Route)
    /// The path has the shape of a route but a bad value (400).
    case badRequest(String)
    /// Nothing lives at this path (404).
    case notFound(String)
}
