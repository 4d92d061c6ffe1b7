import TileGeometry
import TileImagery
import TileProviders

/// `source: {type: geotiff, path | url, bands, rescale, resampling, nodata}` (SPEC "Imagery"):
/// a GeoTIFF or COG, local or remote (`https://`, `s3://`), warped per tile through GDAL.
/// The raster fills the layer's bounds (its WGS84 footprint) and zoom range (0 to the zoom
/// that reaches its resolution); a configured `maxZoom` above that overzooms.
public struct GeoTIFFSource: ConfiguredSource, Equatable {
    /// The raster.
    public var location: RasterLocation
    /// Bands, rescale, resampling, nodata and the tile format.
    public var options: GeoTIFFOptions

    /// A raster source.
    public init(location: RasterLocation, options: GeoTIFFOptions = GeoTIFFOptions()) {
        self.location = location
        self.options = options
    }

    public var summary: String {
        switch location {
        case .file: return "GeoTIFF"
        case .http: return "GeoTIFF · HTTP"
        case .s3: return "GeoTIFF · S3"
        }
    }

    /// Tiles are drawn in the layer's format (png, jpg or webp).
    public func adopting(format: TileFormat) -> any ConfiguredSource {
        var adopted = self
        adopted.options.format = format
        return adopted
    }

    /// A local file is there and readable (a remote one is not probed again).
    public func readinessProblem() -> String? {
        guard case .file(let path) = location else { return nil }
        return LayerReadiness.problem(at: path, folder: false)
    }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        guard options.format != .pbf else {
            throw context.error("format", "a geotiff layer draws raster tiles: png, jpg or webp")
        }
        var options = options
        options.quality = context.quality
        let provider: GeoTIFFTileProvider
        do {
            provider = try GeoTIFFTileProvider(location: location, options: options)
        } catch {
            throw context.error(location.isRemote ? "source.url" : "source.path", error.description)
        }
        context.logger.info("layer \"\(context.layerName)\": raster \(location)", metadata: [
            "bounds": "\(provider.footprint.array)", "nativeZoom": "\(provider.nativeZoom)",
        ])
        return BuiltSource(source: .sync(provider), metadata: SourceMetadata(zoomRange: 0 ... provider.nativeZoom, bounds: provider.footprint))
    }
}
