/// Identifiers of the OGC specifications the documents declare (OGC API – Tiles 1.0, OGC
/// 17-083r4 TileMatrixSet 2.0, OGC API – Common).
enum OGCConformance {
    /// Prefix of the OGC API – Tiles 1.0 requirements classes (OGC 20-057).
    static let tilesBase = "http://www.opengis.net/spec/ogcapi-tiles-1/1.0/conf/"

    /// The classes every tilelayer serves, before the tile encodings.
    static let always = [
        "http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/core",
        "http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/json",
        "http://www.opengis.net/spec/ogcapi-common-1/1.0/conf/landing-page",
        "http://www.opengis.net/spec/ogcapi-common-2/1.0/conf/collections",
        tilesBase + "core",
        tilesBase + "tileset",
        tilesBase + "tilesets-list",
        tilesBase + "geodata-tilesets",
        "http://www.opengis.net/spec/tms/2.0/conf/tilematrixset",
        "http://www.opengis.net/spec/tms/2.0/conf/json-tilematrixset",
    ]

    /// Always-served classes, then one per tile encoding of `formats`, without repeats.
    static func classes(for formats: [OGCTileFormat]) -> [String] {
        var result = always
        for format in formats where !result.contains(format.conformanceClass) { result.append(format.conformanceClass) }
        return result
    }

    /// Link relation types of OGC API (OGC 20-057 §6 and OGC API – Common).
    enum Relation {
        static let conformance = "http://www.opengis.net/def/rel/ogc/1.0/conformance"
        static let data = "http://www.opengis.net/def/rel/ogc/1.0/data"
        static let tilingSchemes = "http://www.opengis.net/def/rel/ogc/1.0/tiling-schemes"
        static let tilingScheme = "http://www.opengis.net/def/rel/ogc/1.0/tiling-scheme"
        static let tilesetsMap = "http://www.opengis.net/def/rel/ogc/1.0/tilesets-map"
        static let tilesetsVector = "http://www.opengis.net/def/rel/ogc/1.0/tilesets-vector"
    }
}
