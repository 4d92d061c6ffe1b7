import TileGeometry
import TileHTTP

/// A `/static` or `/camera` view checked against its layer, with what answering it needs.
struct ResolvedView: Sendable {
    /// The camera, viewport, ground and tiles.
    let view: StaticView
    /// The query it was read from (its probes answer `/camera`).
    let query: StaticQuery
    /// The layer named in the path.
    let layer: Layer
    /// The layer's query variables, defaults filled in.
    let variables: [String: String]
}

/// A view, or the answer that refuses it (unknown layer 404, bad parameter 400).
enum ViewResolution: Sendable {
    case view(ResolvedView)
    case refused(HTTPResponse)
}
