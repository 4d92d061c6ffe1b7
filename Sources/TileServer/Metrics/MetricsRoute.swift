import TileHTTP

/// Route labels of the request metrics (`HTTPResponse.route`): a fixed, small vocabulary,
/// never a raw path, so the number of series stays bounded.
enum MetricsRoute {
    static let tile = "tile"
    static let tileJSON = "tilejson"
    static let index = "index"
    static let staticFile = "static"
    static let camera = "camera"
    static let health = "health"
    static let metrics = "metrics"
    static let admin = "admin"
    static let asset = "asset"
    static let wmts = "wmts"
    static let ogcAPI = "ogc"
    /// Paths that match no route, and answers the connection makes itself.
    static let other = HTTPServerMetrics.otherRoute
}

extension Route {
    /// This route's metrics label.
    var metricsLabel: String {
        switch self {
        case .index: MetricsRoute.index
        case .health, .readiness: MetricsRoute.health
        case .tileJSONIndex, .tileJSON: MetricsRoute.tileJSON
        case .tile: MetricsRoute.tile
        case .metrics: MetricsRoute.metrics
        case .asset: MetricsRoute.asset
        case .staticMap: MetricsRoute.staticFile
        case .camera: MetricsRoute.camera
        case .wmts: MetricsRoute.wmts
        case .ogcAPI: MetricsRoute.ogcAPI
        case .clearCache, .reload: MetricsRoute.admin
        }
    }
}

extension HTTPResponse {
    /// The response labelled `route`, unless it already has a label.
    consuming func labelled(_ route: String) -> HTTPResponse {
        if self.route == nil { self.route = route }
        return consume self
    }

    /// The response labelled with `route`'s label, unless it already has one.
    consuming func labelled(_ route: Route) -> HTTPResponse {
        labelled(route.metricsLabel)
    }
}
