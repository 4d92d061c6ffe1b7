import TileGeometry

/// The query of a `/static` or `/camera` request: the camera parameters (`CameraQuery`, the same
/// for both), the probes only `/camera` answers (`point`, `coordinate`), and whatever else the
/// layer's own variables take (`?floor=2`).
struct StaticQuery: Sendable {
    /// `padding`, `fitPadding`, `bounds`, `span`, `update`.
    var camera = CameraQuery()
    /// `point` and `coordinate` (empty for `/static`, which leaves them to the layer).
    var probes = CameraProbes()
    /// The other parameters, for `Layer.variableValues(from:)`.
    var layerItems: [(name: String, value: String)] = []

    /// Reads `items`; `probes` says whether `point` and `coordinate` are this route's own.
    init(_ items: [(name: String, value: String)], probes acceptsProbes: Bool = false) throws(StaticMapError) {
        for item in items {
            if try camera.read(item) { continue }
            if acceptsProbes, try probes.read(item) { continue }
            layerItems.append(item)
        }
    }
}
