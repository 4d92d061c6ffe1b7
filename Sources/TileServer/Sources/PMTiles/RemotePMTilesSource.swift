import TileProviders

/// `source: {type: pmtiles, url}`: a PMTiles v3 archive over HTTP(S), read with Range requests.
public struct RemotePMTilesSource: ConfiguredSource, Equatable {
    /// `http://` or `https://` URL of the archive.
    public var url: String

    /// A remote archive.
    public init(url: String) {
        self.url = url
    }

    public var summary: String { "PMTiles · remote" }

    /// The archive may be replaced (ETag → 412 → re-read).
    public func tilesChange(over members: [Layer]) -> Bool { true }

    /// Read lazily: the header's zoom range and bounds do not fill the layer (set them in the configuration).
    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        BuiltSource(source: .async(PMTilesRemoteTileProvider(url: url, logger: context.logger)))
    }
}
