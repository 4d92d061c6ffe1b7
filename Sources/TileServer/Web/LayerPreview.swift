import Foundation
import TileGeometry
import TileProviders

/// What the front page shows of one layer: the facts of its card and how to preview it.
struct LayerPreview: Sendable {
    /// The layer's URL name.
    let name: String
    /// Whether it is the layer of `/{z}/{x}/{y}.{ext}`.
    let isDefault: Bool
    /// Lowest zoom served.
    let minZoom: Int
    /// Highest zoom served.
    let maxZoom: Int
    /// The area it covers (the world when neither the configuration nor the source says).
    let bounds: GeoBounds
    /// Attribution text, unescaped.
    let attribution: String?
    /// One-line description, unescaped.
    let description: String?
    /// Where its tiles come from, in a few words ("directory", "MBTiles", …).
    let sourceKind: String
    /// Its URL variables by name, each offered as a selector.
    let variables: [URLTemplateVariable]
    /// Path of its OGC API – Tiles tileset.
    let ogcAPITilesetPath: String
    /// Its tiles' format.
    let format: TileFormat
    /// Whether it has `@2x` tiles (natively, or derived: a format `TileImageCodec` can draw).
    let hasRetina: Bool
    /// A vector layer's layer names (`vector_layers` ids) from its metadata.
    let vectorLayerNames: [String]

    /// The preview of `layer`.
    init(layer: Layer) {
        name = layer.name
        isDefault = layer.settings.isDefault
        minZoom = layer.minZoom
        maxZoom = layer.maxZoom
        bounds = layer.settings.bounds ?? WebMercator.worldBounds
        attribution = layer.settings.attribution.flatMap { $0.isEmpty ? nil : $0 }
        description = layer.settings.description.flatMap { $0.isEmpty ? nil : $0 }
        sourceKind = layer.settings.source.value.summary
        variables = layer.variables.values.sorted { $0.name < $1.name }
        ogcAPITilesetPath = OGCAPITilesets.path(of: layer, baseURL: "") + "/" + OGCAPIRoute.webMercatorQuad
        format = layer.format
        hasRetina = TileImageCodec.canDerive(layer.format) || layer.servesNatively(scale: 2)
        vectorLayerNames = Self.vectorLayerNames(layer.settings.vectorLayers)
    }

    /// The `id` of each entry of `vector_layers` (JSON text).
    static func vectorLayerNames(_ json: String?) -> [String] {
        guard let json, case .array(let items)? = JSONValue(parsing: json) else { return [] }
        return items.compactMap { item in
            guard case .object(let members) = item, case .string(let id)? = members.first(where: { $0.0 == "id" })?.1 else { return nil }
            return id
        }
    }

    /// `.png`, `.jpg`…: the extension of its tile URLs, with the dot.
    var fileExtension: String { "." + format.fileExtension }

    /// Path of its tiles with Leaflet's placeholders: `{r}` becomes `@2x` on high-DPI screens.
    var leafletTemplate: String { "/\(name)/{z}/{x}/{y}\(hasRetina ? "{r}" : "")\(fileExtension)" }

    /// Path template of its 256 px tiles, as clients configure it.
    var tileTemplate: String { "/\(name)/{z}/{x}/{y}\(fileExtension)" }

    /// Path of the WMTS capabilities, which list every raster layer.
    static let wmtsCapabilitiesPath = "/wmts/1.0.0/WMTSCapabilities.xml"


    /// Whether the layer spans every longitude, so its map may repeat east and west.
    var coversAllLongitudes: Bool { bounds.west <= -180 && bounds.east >= 180 }

    /// `?name=value&…` with each variable's default, or "" without variables.
    var defaultQuery: String {
        guard !variables.isEmpty else { return "" }
        return "?" + variables.map { "\($0.name)=\($0.defaultValue)" }.joined(separator: "&")
    }

    /// The still image shown without Leaflet: the tile at the centre of the bounds at the
    /// minimum zoom.
    var stillTile: TileCoordinate {
        let crossing = bounds.west > bounds.east
        let longitude = crossing ? (bounds.west + bounds.east + 360) / 2 : (bounds.west + bounds.east) / 2
        let north = MercatorPoint(Coordinate(latitude: clampedLatitude(bounds.north), longitude: longitude))
        let south = MercatorPoint(Coordinate(latitude: clampedLatitude(bounds.south), longitude: longitude))
        let side = TileCoordinate.tilesPerSide(atZoom: minZoom)
        let unitX = north.x - floor(north.x)
        let x = min(Int(unitX * Double(side)), side - 1)
        let y = min(max(Int((north.y + south.y) / 2 * Double(side)), 0), side - 1)
        return TileCoordinate(z: minZoom, x: x, y: y)
    }

    private func clampedLatitude(_ latitude: Double) -> Double {
        min(max(latitude, -WebMercator.maxLatitude), WebMercator.maxLatitude)
    }
}
