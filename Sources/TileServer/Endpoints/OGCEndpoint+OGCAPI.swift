import TileHTTP

extension OGCEndpoint {
    /// An OGC API – Tiles request: a JSON document, or a tile.
    func ogcAPIResolution(_ request: HTTPRequest, _ route: OGCAPIRoute) -> OGCResolution {
        let layers = state.layers
        let base = baseURL(for: request)
        switch route {
        case .landing: return .answer(jsonAnswer(OGCAPIDocuments.landing(baseURL: base), to: request))
        case .conformance: return .answer(jsonAnswer(OGCAPIDocuments.conformance(layers: layers.layers), to: request))
        case .collections: return .answer(jsonAnswer(OGCAPIDocuments.collections(layers: layers.layers, baseURL: base), to: request))
        case .tileMatrixSets: return .answer(jsonAnswer(OGCTileMatrixSetDocument.list(baseURL: base), to: request))
        case .tileMatrixSet: return .answer(jsonAnswer(OGCTileMatrixSetDocument.document(layers: layers.layers), to: request))
        case .collection(let name):
            guard let layer = layers[name] else { return .answer(errorAnswer(.notFound("no such collection \"\(name)\""), to: request)) }
            return .answer(jsonAnswer(OGCAPIDocuments.collection(layer, baseURL: base), to: request))
        case .tilesets(let name, let vector), .tileset(let name, let vector), .tile(let name, let vector, _, _, _):
            guard let layer = layers[name] else { return .answer(errorAnswer(.notFound("no such collection \"\(name)\""), to: request)) }
            guard OGCTileFormat.of(layer).isVector == vector else {
                return .answer(errorAnswer(.notFound("collection \"\(name)\" has its tiles at \(OGCAPITilesets.path(of: layer, baseURL: ""))"),
                                               to: request))
            }
            switch route {
            case .tilesets: return .answer(jsonAnswer(OGCAPITilesets.list(layer, baseURL: base), to: request))
            case .tile(_, _, let matrix, let row, let column):
                return ogcAPITile(request, layer: layer, matrix: matrix, row: row, column: column)
            default: return .answer(jsonAnswer(OGCAPITilesets.tileset(layer, baseURL: base), to: request))
            }
        }
    }

    /// A tile of the tileset: outside its `tileMatrixSetLimits` (OGC 20-057 /req/core/tc-error)
    /// 404, as for an XYZ tile out of range but without wrapping columns; not a number 400.
    private func ogcAPITile(_ request: HTTPRequest, layer: Layer, matrix: String, row: String, column: String) -> OGCResolution {
        var numbers: [Int] = []
        for (name, text) in [("tileMatrix", matrix), ("tileRow", row), ("tileCol", column)] {
            guard let value = WMTSTileRequest.number(text) else {
                return .answer(errorAnswer(.badRequest("\(name) \"\(text)\" is not a number"), to: request))
            }
            numbers.append(value)
        }
        guard let limits = TileMatrixLimits.of(layer).first(where: { $0.zoom == numbers[0] }),
              limits.contains(row: numbers[1], column: numbers[2]) else {
            return .answer(errorAnswer(.notFound("tile \(numbers[0])/\(numbers[1])/\(numbers[2]) is outside the tileset's limits"),
                                         to: request))
        }
        return .tile(request, TileRoute(layer: layer.name, z: numbers[0], x: numbers[2], y: numbers[1], scale: 1))
    }
}
