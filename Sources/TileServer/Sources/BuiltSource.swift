import TileGeometry
import TileProviders

/// A source built for a layer: its provider and what it knows of the layer, which fills in
/// whatever the configuration leaves out.
public struct BuiltSource: Sendable {
    /// The provider.
    public var source: TileSource
    /// Named variables its tile URLs accept.
    public var variables: [URLTemplateVariable]
    /// The layers it draws, bottom first (a composite's).
    public var members: [Layer]
    /// The format the source states, if any, and where it says so.
    public var format: SourceFormat?
    /// Zoom range, bounds, attribution… from the source's metadata.
    public var metadata: SourceMetadata

    /// A built source.
    public init(source: TileSource, variables: [URLTemplateVariable] = [], members: [Layer] = [],
                format: SourceFormat? = nil, metadata: SourceMetadata = SourceMetadata()) {
        self.source = source
        self.variables = variables
        self.members = members
        self.format = format
        self.metadata = metadata
    }
}

/// What a source's metadata says of its layer; nil where it is silent.
public struct SourceMetadata: Sendable, Equatable {
    /// Zoom range of its tiles.
    public var zoomRange: ClosedRange<Int>?
    /// Area covered.
    public var bounds: GeoBounds?
    /// Attribution text.
    public var attribution: String?
    /// One-line description.
    public var description: String?
    /// `vector_layers` (JSON text) of a vector source.
    public var vectorLayers: String?

    /// Metadata.
    public init(zoomRange: ClosedRange<Int>? = nil, bounds: GeoBounds? = nil, attribution: String? = nil,
                description: String? = nil, vectorLayers: String? = nil) {
        self.zoomRange = zoomRange
        self.bounds = bounds
        self.attribution = attribution
        self.description = description
        self.vectorLayers = vectorLayers
    }

    /// An MBTiles metadata table's (also a PMTiles archive's header and JSON metadata).
    init(_ metadata: MBTilesMetadata) {
        if let low = metadata.minZoom, let high = metadata.maxZoom, low <= high { zoomRange = low ... high }
        bounds = metadata.bounds
        attribution = metadata.attribution
        description = metadata.description
        vectorLayers = metadata.vectorLayersJSON
    }
}

extension LayerSettings {
    /// The source's metadata feeds what the configuration leaves out.
    mutating func fill(from metadata: SourceMetadata) {
        if let range = metadata.zoomRange {
            minZoom = minZoom ?? range.lowerBound
            maxZoom = maxZoom ?? range.upperBound
        }
        bounds = bounds ?? metadata.bounds
        attribution = attribution ?? metadata.attribution
        description = description ?? metadata.description
        vectorLayers = vectorLayers ?? metadata.vectorLayers
    }
}
