/// One image in a composite stack, drawn with an opacity factor.
public struct CompositeLayer: Sendable, Equatable {
    /// The layer's pixels (straight alpha).
    public var image: RGBAImage
    /// Multiplies the layer's alpha: 0 (invisible) ... 1 (as is). Values outside
    /// 0...1 are clamped; NaN counts as 0.
    public var opacity: Double

    /// A layer with an opacity (default 1).
    public init(_ image: RGBAImage, opacity: Double = 1) {
        self.image = image
        self.opacity = opacity
    }

    /// `opacity` clamped to 0...1 with NaN → 0.
    var clampedOpacity: Double {
        opacity.isNaN ? 0 : min(max(opacity, 0), 1)
    }
}
