/// The view a camera is drawn into: its size in points, the pixels per point, and the padding.
///
/// The padding does not shrink the view; it moves the target: the camera target is drawn at the
/// centre of the rectangle left after the padding (bottom padding 300 on an 800-point-tall view puts
/// the target 150 points above the middle), as the Maps SDK's `padding` does.
public struct Viewport: Sendable, Hashable {
    /// Width in points.
    public var width: Double
    /// Height in points.
    public var height: Double
    /// Pixels per point: 1, or 2 for `@2x`.
    public var scale: Int
    /// Points kept clear at each edge.
    public var padding: EdgeInsets

    /// A view of `width` × `height` points.
    public init(width: Double, height: Double, scale: Int = 1, padding: EdgeInsets = .zero) {
        self.width = width
        self.height = height
        self.scale = scale
        self.padding = padding
    }

    /// Width in pixels.
    public var pixelWidth: Int { Int((width * Double(scale)).rounded()) }
    /// Height in pixels.
    public var pixelHeight: Int { Int((height * Double(scale)).rounded()) }

    /// Width left after the left and right padding (never negative).
    public var paddedWidth: Double { max(0, width - padding.horizontal) }
    /// Height left after the top and bottom padding (never negative).
    public var paddedHeight: Double { max(0, height - padding.vertical) }

    /// Where the camera target is drawn: the centre of the padded rectangle.
    public var targetPoint: ScreenPoint {
        ScreenPoint(x: padding.left + (width - padding.horizontal) / 2,
                    y: padding.top + (height - padding.vertical) / 2)
    }

    /// The centre of the whole view, padding ignored.
    public var center: ScreenPoint { ScreenPoint(x: width / 2, y: height / 2) }
}
