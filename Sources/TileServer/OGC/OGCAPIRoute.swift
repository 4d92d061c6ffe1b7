/// What a path under `/ogc` names (OGC API – Tiles 1.0). Pure: no layer lookups.
public enum OGCAPIRoute: Sendable, Equatable {
    /// `/ogc`: the landing page.
    case landing
    /// `/ogc/conformance`.
    case conformance
    /// `/ogc/collections`.
    case collections
    /// `/ogc/collections/{layer}`.
    case collection(String)
    /// `/ogc/collections/{layer}/map/tiles` (`vector` false) or `/ogc/collections/{layer}/tiles`.
    case tilesets(layer: String, vector: Bool)
    /// `…/tiles/WebMercatorQuad`: a tileset's metadata.
    case tileset(layer: String, vector: Bool)
    /// `…/tiles/WebMercatorQuad/{tileMatrix}/{tileRow}/{tileCol}`: a tile, numbers unchecked.
    case tile(layer: String, vector: Bool, tileMatrix: String, tileRow: String, tileCol: String)
    /// `/ogc/tileMatrixSets`.
    case tileMatrixSets
    /// `/ogc/tileMatrixSets/WebMercatorQuad`.
    case tileMatrixSet

    /// The first path segment.
    static let prefix = "ogc"
    /// The one tile matrix set's identifier (OGC 17-083r4 Annex D.1).
    static let webMercatorQuad = "WebMercatorQuad"

    /// The route for `segments` (starting with `prefix`).
    static func match(_ segments: [String]) -> RouteMatch {
        var rest = Array(segments.dropFirst())
        if rest.last == "" { rest.removeLast() }
        switch rest.first {
        case nil: return .route(.ogcAPI(.landing))
        case "conformance" where rest.count == 1: return .route(.ogcAPI(.conformance))
        case "tileMatrixSets" where rest.count == 1: return .route(.ogcAPI(.tileMatrixSets))
        case "tileMatrixSets" where rest == ["tileMatrixSets", webMercatorQuad]: return .route(.ogcAPI(.tileMatrixSet))
        case "collections": return collection(Array(rest.dropFirst()))
        default: return .notFound("no such OGC API path")
        }
    }

    private static func collection(_ rest: [String]) -> RouteMatch {
        guard let layer = rest.first else { return .route(.ogcAPI(.collections)) }
        guard Router.isLayerName(layer) else { return .notFound("no such collection \"\(layer)\"") }
        if rest.count == 1 { return .route(.ogcAPI(.collection(layer))) }
        let vector = rest[1] == "tiles"
        let tiles = Array(rest.dropFirst(vector ? 2 : 3))
        guard vector || rest.count >= 3 && rest[1] == "map" && rest[2] == "tiles" else { return .notFound("no such OGC API path") }
        switch tiles.count {
        case 0: return .route(.ogcAPI(.tilesets(layer: layer, vector: vector)))
        case 1 where tiles[0] == webMercatorQuad: return .route(.ogcAPI(.tileset(layer: layer, vector: vector)))
        case 4 where tiles[0] == webMercatorQuad:
            return .route(.ogcAPI(.tile(layer: layer, vector: vector, tileMatrix: tiles[1], tileRow: tiles[2], tileCol: tiles[3])))
        default: return .notFound("no such tileset (the one tiling scheme is \(webMercatorQuad))")
        }
    }
}
