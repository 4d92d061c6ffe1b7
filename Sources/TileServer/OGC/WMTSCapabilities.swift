import TileGeometry
import TileProviders

/// The WMTS 1.0.0 `Capabilities` document (OGC 07-057r7 §7.1): both operations in KVP and
/// RESTful encodings, one `Layer` per raster layer, the two Web Mercator tile matrix sets.
/// Everything from the configuration is escaped.
enum WMTSCapabilities {
    /// The document for `layers` (vector layers are left out: WMTS serves images), with
    /// absolute URLs under `baseURL`.
    static func document(layers: [Layer], baseURL: String) -> String {
        let raster = layers.filter { !OGCTileFormat.of($0).isVector }
        let maxZoom = raster.map(\.maxZoom).max() ?? 0
        let base = XMLText.escape(baseURL)
        var xml = """
        <?xml version="1.0" encoding="UTF-8"?>
        <Capabilities xmlns="http://www.opengis.net/wmts/1.0" xmlns:ows="http://www.opengis.net/ows/1.1" \
        xmlns:xlink="http://www.w3.org/1999/xlink" xmlns:xsi="http://www.w3.org/2001/XMLSchema-instance" \
        xsi:schemaLocation="http://www.opengis.net/wmts/1.0 http://schemas.opengis.net/wmts/1.0/wmtsGetCapabilities_response.xsd" \
        version="1.0.0">
        <ows:ServiceIdentification>
        <ows:Title>tilelayer</ows:Title>
        <ows:ServiceType>OGC WMTS</ows:ServiceType>
        <ows:ServiceTypeVersion>1.0.0</ows:ServiceTypeVersion>
        </ows:ServiceIdentification>
        <ows:OperationsMetadata>
        \(operation("GetCapabilities", base: base, rest: "\(base)/wmts/1.0.0/WMTSCapabilities.xml"))
        \(operation("GetTile", base: base, rest: "\(base)/wmts/1.0.0/"))
        </ows:OperationsMetadata>
        <Contents>

        """
        for layer in raster { xml += self.layer(layer, base: base) }
        for entry in WMTSTileMatrixSets.all {
            xml += matrixSet(entry.identifier, entry.set, maxZoom: maxZoom, wellKnown: entry.scale == 1)
        }
        xml += "</Contents>\n<ServiceMetadataURL xlink:href=\"\(base)/wmts/1.0.0/WMTSCapabilities.xml\"/>\n</Capabilities>\n"
        return xml
    }

    /// An `ows:Operation` with a KVP and a RESTful `Get` (§7.1.1.2: `GetEncoding` constraints).
    private static func operation(_ name: String, base: String, rest: String) -> String {
        func get(_ href: String, _ encoding: String) -> String {
            "<ows:Get xlink:href=\"\(href)\"><ows:Constraint name=\"GetEncoding\"><ows:AllowedValues>"
                + "<ows:Value>\(encoding)</ows:Value></ows:AllowedValues></ows:Constraint></ows:Get>"
        }
        return "<ows:Operation name=\"\(name)\"><ows:DCP><ows:HTTP>\(get("\(base)/wmts?", "KVP"))"
            + "\(get(rest, "RESTful"))</ows:HTTP></ows:DCP></ows:Operation>"
    }

    /// One `Layer` (§7.1.1.4.1): elements in the schema's order.
    private static func layer(_ layer: Layer, base: String) -> String {
        let name = XMLText.escape(layer.name)
        let format = OGCTileFormat.of(layer)
        let bounds = layer.settings.bounds ?? WebMercator.worldBounds
        let west = bounds.crossesAntimeridian ? -180 : bounds.west
        let east = bounds.crossesAntimeridian ? 180 : bounds.east
        let summary = [layer.settings.description, layer.settings.attribution].compactMap { $0 }.filter { !$0.isEmpty }
        let abstract = summary.isEmpty ? "" : "<ows:Abstract>\(XMLText.escape(summary.joined(separator: " — ")))</ows:Abstract>\n"
        var xml = """
        <Layer>
        <ows:Title>\(name)</ows:Title>
        \(abstract)<ows:WGS84BoundingBox crs="urn:ogc:def:crs:OGC:2:84">\
        <ows:LowerCorner>\(west) \(bounds.south)</ows:LowerCorner><ows:UpperCorner>\(east) \(bounds.north)</ows:UpperCorner>\
        </ows:WGS84BoundingBox>
        <ows:Identifier>\(name)</ows:Identifier>
        <Style isDefault="true"><ows:Title>\(WMTSRequest.defaultStyle)</ows:Title><ows:Identifier>\(WMTSRequest.defaultStyle)</ows:Identifier></Style>
        <Format>\(format.mediaType)</Format>

        """
        let limits = TileMatrixLimits.of(layer)
        // A format without a codec has no derived (@2x) tiles: only the set it serves natively.
        for entry in WMTSTileMatrixSets.all where TileImageCodec.canDerive(layer.format) || layer.servesNatively(scale: entry.scale) {
            xml += "<TileMatrixSetLink><TileMatrixSet>\(entry.identifier)</TileMatrixSet><TileMatrixSetLimits>\n"
            for limit in limits {
                xml += "<TileMatrixLimits><TileMatrix>\(limit.zoom)</TileMatrix>"
                    + "<MinTileRow>\(limit.rows.lowerBound)</MinTileRow><MaxTileRow>\(limit.rows.upperBound)</MaxTileRow>"
                    + "<MinTileCol>\(limit.columns.lowerBound)</MinTileCol><MaxTileCol>\(limit.columns.upperBound)</MaxTileCol>"
                    + "</TileMatrixLimits>\n"
            }
            xml += "</TileMatrixSetLimits></TileMatrixSetLink>\n"
        }
        let template = "\(base)/wmts/1.0.0/\(name)/\(WMTSRequest.defaultStyle)/{TileMatrixSet}/{TileMatrix}/{TileRow}/{TileCol}.\(format.fileExtension)"
        xml += "<ResourceURL format=\"\(format.mediaType)\" resourceType=\"tile\" template=\"\(template)\"/>\n</Layer>\n"
        return xml
    }

    /// One `TileMatrixSet` (§6.1.1) with matrices 0 … `maxZoom`.
    private static func matrixSet(_ identifier: String, _ set: WebMercatorTileMatrixSet, maxZoom: Int, wellKnown: Bool) -> String {
        let corner = "-\(WebMercatorTileMatrixSet.originText) \(WebMercatorTileMatrixSet.originText)"
        var xml = """
        <TileMatrixSet>
        <ows:Identifier>\(identifier)</ows:Identifier>
        <ows:BoundingBox crs="\(WMTSTileMatrixSets.crs)">\
        <ows:LowerCorner>-\(WebMercatorTileMatrixSet.originText) -\(WebMercatorTileMatrixSet.originText)</ows:LowerCorner>\
        <ows:UpperCorner>\(WebMercatorTileMatrixSet.originText) \(WebMercatorTileMatrixSet.originText)</ows:UpperCorner></ows:BoundingBox>
        <ows:SupportedCRS>\(WMTSTileMatrixSets.crs)</ows:SupportedCRS>

        """
        if wellKnown { xml += "<WellKnownScaleSet>\(WMTSTileMatrixSets.wellKnownScaleSet)</WellKnownScaleSet>\n" }
        for zoom in 0 ... maxZoom {
            let side = TileCoordinate.tilesPerSide(atZoom: zoom)
            xml += "<TileMatrix><ows:Identifier>\(zoom)</ows:Identifier>"
                + "<ScaleDenominator>\(set.scaleDenominator(atZoom: zoom))</ScaleDenominator>"
                + "<TopLeftCorner>\(corner)</TopLeftCorner>"
                + "<TileWidth>\(set.tileSize)</TileWidth><TileHeight>\(set.tileSize)</TileHeight>"
                + "<MatrixWidth>\(side)</MatrixWidth><MatrixHeight>\(side)</MatrixHeight></TileMatrix>\n"
        }
        return xml + "</TileMatrixSet>\n"
    }
}
