import TileProviders

/// How a `geotiff` source turns its raster into tiles (SPEC "Imagery"): which bands, how values
/// map to 0…255, how pixels are resampled, which value means "no data", and the tile format.
public struct GeoTIFFOptions: Sendable, Equatable {
    /// GDAL's resampling of the warper.
    public enum Resampling: String, Sendable, Equatable, CaseIterable {
        case nearest, bilinear, cubic, lanczos
    }

    /// Bands (1-based) drawn as red, green, blue (three) or grey (one); nil: the file's RGB(A),
    /// a single band as grey.
    public var bands: [Int]?
    /// Values `min…max` mapped linearly to 0…255; nil: none for 8-bit data, the bands' range
    /// (computed at start-up, approximately) for 16-bit and float data.
    public var rescale: ClosedRange<Double>?
    /// Resampling (bilinear by default).
    public var resampling: Resampling
    /// The value that means "no data"; nil: the file's nodata value, alpha band or mask.
    public var nodata: Double?
    /// The tile format (png, jpg or webp).
    public var format: TileFormat
    /// JPEG or WebP quality (1…100); nil: the codec's default.
    public var quality: Int?

    /// Options.
    public init(bands: [Int]? = nil, rescale: ClosedRange<Double>? = nil, resampling: Resampling = .bilinear,
                nodata: Double? = nil, format: TileFormat = .png, quality: Int? = nil) {
        self.bands = bands
        self.rescale = rescale
        self.resampling = resampling
        self.nodata = nodata
        self.format = format
        self.quality = quality
    }
}
