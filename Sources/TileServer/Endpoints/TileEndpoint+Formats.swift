import TileProviders

extension TileEndpoint {
    /// Why a tile route does not exist for `layer` (404), or nil: the URL's extension must be one
    /// of the layer's format (`.jpeg` and `.mvt` included); a vector layer has no `@2x`; derived
    /// tiles of a format without a codec cannot be made (`TileImageCodec`).
    func formatProblem(_ route: TileRoute, layer: Layer) -> String? {
        let format = layer.format
        if let asked = route.format, asked != format {
            return "layer \"\(layer.name)\" serves \(format.displayName) tiles at .\(format.fileExtension), not .\(asked.fileExtension)"
        }
        if !layer.servesNatively(scale: route.scale) && !TileImageCodec.canDerive(format) {
            return "layer \"\(layer.name)\" has no @2x tiles: " + TileImageCodec.Unsupported(format: format).description
        }
        return nil
    }
}
