import TileProviders

extension LayerBuilder {
    /// Settles the layer's format (SPEC "Tile formats"): the source's where it knows it, else the
    /// layer key `format`, else PNG; the two disagreeing is a configuration error naming both.
    /// Then refuses what the format cannot do: derived tiles of a format without a codec
    /// (`TileImageCodec`), and anything drawn from vector tiles.
    func resolveFormat(_ settings: inout LayerSettings, known: SourceFormat?) throws(ConfigurationError) {
        if let known, let configured = settings.format, configured != known.format {
            throw error("format", "format \(configured) contradicts \(known.origin), which says \(known.format)")
        }
        let format = settings.format ?? known?.format ?? .png
        settings.format = format
        guard !TileImageCodec.canDerive(format) else { return }
        let reason = TileImageCodec.Unsupported(format: format).description
        if settings.tileSize != 256 {
            throw error("tileSize", "a \(format) layer must have tileSize 256 (512 px tiles need 256 px ones derived): \(reason)")
        }
        if settings.emptyTile == .transparent && format.isRaster {
            throw error("emptyTile", "a \(format) layer cannot have emptyTile: transparent: \(reason)")
        }
    }
}
