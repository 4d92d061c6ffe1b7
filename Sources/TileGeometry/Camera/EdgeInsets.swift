/// Points kept clear at each edge of a view (the Maps SDK's `padding`, a `UIEdgeInsets`).
public struct EdgeInsets: Sendable, Hashable, Codable {
    /// Points kept clear at the top edge.
    public var top: Double
    /// Points kept clear at the left edge.
    public var left: Double
    /// Points kept clear at the bottom edge.
    public var bottom: Double
    /// Points kept clear at the right edge.
    public var right: Double

    /// Insets per edge; labels make the order irrelevant (CSS and `/static?padding=` say top, right, bottom, left).
    public init(top: Double = 0, left: Double = 0, bottom: Double = 0, right: Double = 0) {
        self.top = top
        self.left = left
        self.bottom = bottom
        self.right = right
    }

    /// The same inset at every edge (`fitBounds(_:withPadding:)`).
    public init(all inset: Double) {
        self.init(top: inset, left: inset, bottom: inset, right: inset)
    }

    /// No insets.
    public static let zero = EdgeInsets()

    /// left + right.
    public var horizontal: Double { left + right }
    /// top + bottom.
    public var vertical: Double { top + bottom }

    /// Both insets added edge by edge.
    public static func + (lhs: EdgeInsets, rhs: EdgeInsets) -> EdgeInsets {
        EdgeInsets(top: lhs.top + rhs.top, left: lhs.left + rhs.left,
                   bottom: lhs.bottom + rhs.bottom, right: lhs.right + rhs.right)
    }
}
