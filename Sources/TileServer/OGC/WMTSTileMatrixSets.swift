/// The tile matrix sets the WMTS service offers, by identifier (WMTS 1.0 Annex E.4).
enum WMTSTileMatrixSets {
    /// `GoogleMapsCompatible`: the 256 px tiles.
    static let standardIdentifier = "GoogleMapsCompatible"
    /// `GoogleMapsCompatible_512`: the `@2x` tiles.
    static let retinaIdentifier = "GoogleMapsCompatible_512"

    /// Every set, in capabilities order, with the tile scale it serves (1 or 2 for `@2x`).
    static let all: [(identifier: String, set: WebMercatorTileMatrixSet, scale: Int)] = [
        (standardIdentifier, .standard, 1),
        (retinaIdentifier, .retina, 2),
    ]

    /// The set called `identifier`.
    static func named(_ identifier: String) -> (identifier: String, set: WebMercatorTileMatrixSet, scale: Int)? {
        all.first { $0.identifier == identifier }
    }

    /// The URN of their CRS, EPSG:3857 (axes easting, northing).
    static let crs = "urn:ogc:def:crs:EPSG::3857"
    /// The well-known scale set of the 256 px set.
    static let wellKnownScaleSet = "urn:ogc:def:wkss:OGC:1.0:GoogleMapsCompatible"
}
