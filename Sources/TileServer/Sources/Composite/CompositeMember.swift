/// One layer of a composite.
public struct CompositeMember: Sendable, Equatable {
    /// The member layer's name.
    public var layer: String
    /// Drawing order: lower first.
    public var zIndex: Int
    /// 0 (invisible) … 1 (opaque).
    public var opacity: Double

    /// A member.
    public init(layer: String, zIndex: Int = 0, opacity: Double = 1) {
        self.layer = layer
        self.zIndex = zIndex
        self.opacity = opacity
    }
}
