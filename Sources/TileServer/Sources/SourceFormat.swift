import TileProviders

/// A format a source states, and where it says so (for the contradiction message).
public struct SourceFormat: Sendable, Equatable {
    /// The format.
    public let format: TileFormat
    /// Where it is stated ("the format metadata of world.mbtiles").
    public let origin: String

    /// A stated format.
    public init(_ format: TileFormat, from origin: String) {
        self.format = format
        self.origin = origin
    }
}
