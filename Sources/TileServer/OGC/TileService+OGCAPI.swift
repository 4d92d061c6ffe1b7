import TileHTTP

extension TileService {
    /// An OGC API – Tiles request: a JSON document, or a tile.
    func ogcAPIResolution(_ request: HTTPRequest, _ route: OGCAPIRoute) -> OGCResolution {
        let layers = state.layers
        let base = baseURL(for: request)
        switch route {
        case .landing: return .answer(jsonAnswer(OGCAPIDocuments.landing(baseURL: base)))
        case .conformance: return .answer(jsonAnswer(OGCAPIDocuments.conformance(layers: layers.layers)))
        case .collections: return .answer(jsonAnswer(OGCAPIDocuments.collections(layers: layers.layers, baseURL: base)))
        case .tileMatrixSets: return .answer(jsonAnswer(OGCTileMatrixSetDocument.list(baseURL: base)))
        case .tileMatrixSet: return .answer(jsonAnswer(OGCTileMatrixSetDocument.document(layers: layers.layers)))
        case .collection(let name):
            guard let layer = layers[name] else { return .answer(errorResponse(.notFound, "no such collection \"\(name)\"")) }
            return .answer(jsonAnswer(OGCAPIDocuments.collection(layer, baseURL: base)))
        case .tilesets(let name, let vector), .tileset(let name, let vector), .tile(let name, let vector, _, _, _):
            guard let layer = layers[name] else { return .answer(errorResponse(.notFound, "no such collection \"\(name)\"")) }
            guard OGCTileFormat.of(layer).isVector == vector else {
                return .answer(errorResponse(.notFound,
                                             "collection \"\(name)\" has its tiles at \(OGCAPITilesets.path(of: layer, baseURL: ""))"))
            }
            switch route {
            case .tilesets: return .answer(jsonAnswer(OGCAPITilesets.list(layer, baseURL: base)))
            case .tile(_, _, let matrix, let row, let column):
                return ogcAPITile(request, layer: layer, matrix: matrix, row: row, column: column)
            default: return .answer(jsonAnswer(OGCAPITilesets.tileset(layer, baseURL: base)))
            }
        }
    }

    /// A tile of the tileset: outside its `tileMatrixSetLimits` (OGC 20-057 /req/core/tc-error)
    /// 404, as for an XYZ tile out of range but without wrapping columns; not a number 400.
    private func ogcAPITile(_ request: HTTPRequest, layer: Layer, matrix: String, row: String, column: String) -> OGCResolution {
        var numbers: [Int] = []
        for (name, text) in [("tileMatrix", matrix), ("tileRow", row), ("tileCol", column)] {
            guard let value = WMTSTileRequest.number(text) else {
                return .answer(errorResponse(.badRequest, "\(name) \"\(text)\" is not a number"))
            }
            numbers.append(value)
        }
        guard let limits = TileMatrixLimits.of(layer).first(where: { $0.zoom == numbers[0] }),
              limits.contains(row: numbers[1], column: numbers[2]) else {
            return .answer(errorResponse(.notFound, "tile \(numbers[0])/\(numbers[1])/\(numbers[2]) is outside the tileset's limits"))
        }
        return .tile(request, TileRoute(layer: layer.name, z: numbers[0], x: numbers[2], y: numbers[1], scale: 1))
    }
}
