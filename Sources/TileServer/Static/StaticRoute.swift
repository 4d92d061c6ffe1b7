/// A `/static` (or `/camera`) request as named by its path (the query's padding, bounds, updates…
/// are read later, by `StaticQuery`): which layer, which camera, what size, which answer.
public struct StaticRoute: Sendable, Equatable {
    /// The camera part of the path.
    public enum CameraRequest: Sendable, Equatable {
        /// `{lon},{lat},{zoom}[,{bearing}[,{tilt}]]`, unclamped as written.
        case explicit(longitude: Double, latitude: Double, zoom: Double, bearing: Double, tilt: Double)
        /// `auto`: the camera that fits `?bounds=`.
        case auto
    }

    /// What the view is answered with.
    public enum Format: String, Sendable, Equatable {
        /// The rendered view.
        case png
        /// The resolved camera, bounds and tile list.
        case json
    }

    /// The layer named in the path.
    public var layer: String
    /// The camera asked for.
    public var camera: CameraRequest
    /// Width in points.
    public var width: Int
    /// Height in points.
    public var height: Int
    /// Pixels per point: 1, or 2 for `@2x`.
    public var scale: Int
    /// PNG or JSON.
    public var format: Format

    /// A route.
    public init(layer: String, camera: CameraRequest, width: Int, height: Int, scale: Int = 1, format: Format = .png) {
        self.layer = layer
        self.camera = camera
        self.width = width
        self.height = height
        self.scale = scale
        self.format = format
    }

    /// Largest width or height of a view in pixels (points × scale).
    public static let maxPixelSide = 2048
}
