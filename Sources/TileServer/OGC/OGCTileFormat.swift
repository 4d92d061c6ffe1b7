/// How the OGC documents name a layer's tile format: its MIME type, URL extension and OGC API
/// conformance class. The one place to touch when layers gain formats besides PNG.
struct OGCTileFormat: Sendable, Equatable {
    /// `Content-Type` of the tiles, and WMTS `Format`.
    let mediaType: String
    /// Extension of WMTS RESTful tile URLs (no dot).
    let fileExtension: String
    /// OGC API – Tiles 1.0 requirements class of the encoding.
    let conformanceClass: String
    /// Whether tiles are vector data (OGC API `dataType` "vector", tilesets at `/tiles`) rather
    /// than map images (`dataType` "map", tilesets at `/map/tiles`; the only kind WMTS lists).
    let isVector: Bool

    /// PNG images.
    static let png = OGCTileFormat(mediaType: "image/png", fileExtension: "png",
                                   conformanceClass: OGCConformance.tilesBase + "png", isVector: false)
    /// JPEG images.
    static let jpeg = OGCTileFormat(mediaType: "image/jpeg", fileExtension: "jpg",
                                    conformanceClass: OGCConformance.tilesBase + "jpeg", isVector: false)
    /// WebP images (OGC API – Tiles 1.0 has no WebP class: the core class stands in).
    static let webp = OGCTileFormat(mediaType: "image/webp", fileExtension: "webp",
                                    conformanceClass: OGCConformance.tilesBase + "core", isVector: false)
    /// Mapbox Vector Tiles.
    static let mvt = OGCTileFormat(mediaType: "application/vnd.mapbox-vector-tile", fileExtension: "pbf",
                                   conformanceClass: OGCConformance.tilesBase + "mvt", isVector: true)

    /// The format of `layer`'s tiles.
    static func of(_ layer: Layer) -> OGCTileFormat {
        switch layer.format {
        case .png: return .png
        case .jpg: return .jpeg
        case .webp: return .webp
        case .pbf: return .mvt
        }
    }

    /// OGC API `dataType` of the tiles.
    var dataType: String { isVector ? "vector" : "map" }
}
