import TileImagery
import TileProviders

/// `source: {type: pmtiles, url}`: a PMTiles v3 archive over HTTP(S), read with Range requests.
public struct RemotePMTilesSource: ConfiguredSource, Equatable {
    /// `http://`, `https://` or `s3://bucket/key` URL of the archive.
    public var url: String

    /// A remote archive.
    public init(url: String) {
        self.url = url
    }

    public var summary: String { "PMTiles · remote" }

    /// The archive may be replaced (ETag → 412 → re-read).
    public func tilesChange(over members: [Layer]) -> Bool { true }

    /// Read lazily: the header's zoom range and bounds do not fill the layer (set them in the configuration).
    /// An `s3://` archive is read through GDAL (`ObjectRangeReader`), and asked for at start-up:
    /// a 403 or a 404 is a configuration error naming it.
    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        guard url.hasPrefix("s3://"), let location = RasterLocation(url: url) else {
            return BuiltSource(source: .async(PMTilesRemoteTileProvider(url: url, logger: context.logger)))
        }
        let reader = ObjectRangeReader(location: location)
        do { _ = try reader.probe() } catch { throw context.error("source.url", error.description) }
        return BuiltSource(source: .async(PMTilesRemoteTileProvider(url: url, reader: reader, logger: context.logger)))
    }
}
