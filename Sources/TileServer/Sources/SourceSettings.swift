import TileProviders

/// Where a layer's tiles come from (`source:`): the settings its kind read, compared by value.
public struct SourceSettings: Sendable, Equatable {
    /// The kind's settings.
    public let value: any ConfiguredSource

    /// Settings of any kind.
    public init(_ value: any ConfiguredSource) {
        self.value = value
    }

    public static func == (lhs: SourceSettings, rhs: SourceSettings) -> Bool {
        lhs.value.isEqual(to: rhs.value)
    }

    /// The layers it is drawn from (a composite's members).
    public var memberLayers: [String] { value.memberLayers }
}
