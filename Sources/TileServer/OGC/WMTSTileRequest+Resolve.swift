import TileGeometry

extension WMTSTileRequest {
    /// The tile this `GetTile` names, checked against `layers`: an unknown layer, style,
    /// format or matrix set is `InvalidParameterValue`; a matrix, row or column outside the
    /// layer's `TileMatrixSetLimits` is `TileOutOfRange` (WMTS 1.0 Table 28).
    func resolve(in layers: LayerTable) -> Result<TileRoute, WMTSException> {
        guard let layer = layers[self.layer], !OGCTileFormat.of(layer).isVector else {
            return .failure(.invalid("Layer", "unknown layer \"\(self.layer)\""))
        }
        guard style == WMTSRequest.defaultStyle || style.isEmpty else {
            return .failure(.invalid("Style", "unknown style \"\(style)\" (layers have the style \(WMTSRequest.defaultStyle))"))
        }
        let served = OGCTileFormat.of(layer)
        switch format {
        case .mediaType(let type) where type != served.mediaType:
            return .failure(.invalid("Format", "layer \"\(layer.name)\" is served as \(served.mediaType), not \"\(type)\""))
        case .fileExtension(let ext) where ext != served.fileExtension:
            return .failure(.invalid("Format", "layer \"\(layer.name)\" is served as .\(served.fileExtension), not .\(ext)"))
        default: break
        }
        guard let matrixSet = WMTSTileMatrixSets.named(tileMatrixSet) else {
            let known = WMTSTileMatrixSets.all.map(\.identifier).joined(separator: ", ")
            return .failure(.invalid("TileMatrixSet", "unknown tile matrix set \"\(tileMatrixSet)\" (one of \(known))"))
        }
        guard let zoom = Self.number(tileMatrix), zoom <= TileCoordinate.maxZoom else {
            return .failure(.invalid("TileMatrix", "unknown tile matrix \"\(tileMatrix)\" (a zoom level)"))
        }
        guard let limits = TileMatrixLimits.of(layer).first(where: { $0.zoom == zoom }) else {
            return .failure(WMTSException(code: .tileOutOfRange, locator: "TileMatrix",
                                          text: "tile matrix \(zoom) is outside the zooms \(layer.minZoom)-\(layer.maxZoom) of layer \"\(layer.name)\""))
        }
        guard let row = Self.number(tileRow) else { return .failure(.invalid("TileRow", "TileRow \"\(tileRow)\" is not a number")) }
        guard let column = Self.number(tileCol) else { return .failure(.invalid("TileCol", "TileCol \"\(tileCol)\" is not a number")) }
        guard limits.rows.contains(row) else { return .failure(Self.outOfRange("TileRow", row, limits.rows, zoom)) }
        guard limits.columns.contains(column) else { return .failure(Self.outOfRange("TileCol", column, limits.columns, zoom)) }
        return .success(TileRoute(layer: layer.name, z: zoom, x: column, y: row, scale: matrixSet.scale))
    }

    private static func outOfRange(_ name: String, _ value: Int, _ range: ClosedRange<Int>, _ zoom: Int) -> WMTSException {
        WMTSException(code: .tileOutOfRange, locator: name,
                      text: "\(name) \(value) is outside \(range.lowerBound)-\(range.upperBound) at tile matrix \(zoom)")
    }

    /// A non-negative decimal of at most `Router.maxCoordinateDigits` digits.
    static func number(_ text: String) -> Int? {
        guard !text.isEmpty, text.utf8.count <= Router.maxCoordinateDigits,
              text.utf8.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        return Int(text)
    }
}
