import TileProviders

/// A format a source states, and where it says so (for the contradiction message).
struct SourceFormat {
    let format: TileFormat
    let origin: String

    init(_ format: TileFormat, from origin: String) {
        self.format = format
        self.origin = origin
    }
}

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

    /// A composite draws its members: each must be a format that can be decoded.
    func checkMembers(_ members: [Layer]) throws(ConfigurationError) {
        for member in members where !TileImageCodec.canDerive(member.format) {
            throw error("source.layers", "layer \"\(member.name)\" (\(member.format)) cannot be a composite member: "
                        + TileImageCodec.Unsupported(format: member.format).description)
        }
    }

    /// The format a PMTiles header states (for tile type "unknown", as converters from MBTiles
    /// write for `jpg`, the JSON metadata's `format`); a type or tile compression tilelayer does
    /// not serve is an error naming the archive.
    func pmtilesFormat(_ header: PMTilesHeader, metadata: [String: String], path: String) throws(ConfigurationError) -> SourceFormat? {
        let format: TileFormat
        var origin = "the PMTiles header of \(path)"
        switch header.tileType {
        case .unknown:
            guard let named = metadata["format"].flatMap({ TileFormat(name: $0) }) else { return nil }
            format = named
            origin = "the PMTiles metadata format of \(path)"
        case .png: format = .png
        case .jpeg: format = .jpg
        case .webp: format = .webp
        case .mvt: format = .pbf
        case .avif: throw error("source", "\(path): tile type avif is not served (png, jpg, webp and pbf are)")
        }
        switch header.tileCompression {
        case .unknown, .none: break
        case .gzip where format == .pbf: break
        default:
            throw error("source", "\(path): tile compression \(header.tileCompression) of \(format) tiles is not served "
                        + "(tiles go out as stored: none, or gzip for vector tiles)")
        }
        return SourceFormat(format, from: origin)
    }
}
