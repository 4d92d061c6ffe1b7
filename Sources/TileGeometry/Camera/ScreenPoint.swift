/// A point of a view in points (not pixels): x to the right, y down, (0, 0) at the top-left corner,
/// as UIKit and the Maps SDK's `CGPoint`s are.
public struct ScreenPoint: Sendable, Hashable {
    /// Points from the left edge.
    public var x: Double
    /// Points from the top edge.
    public var y: Double

    /// A screen point.
    @inlinable
    public init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}
