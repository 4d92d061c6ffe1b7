import TileGeometry

/// A `/static` (or `/camera`) view resolved against its layer: the camera after every clamp and
/// update, the viewport, and the ground and tiles it shows. The JSON answers describe exactly this
/// value and the PNG draws it.
struct StaticView: Sendable {
    /// The camera after the layer's zoom range, `targetBounds` and the camera's own clamps.
    let camera: Camera
    /// The layer's zoom range and `targetBounds`.
    let limits: CameraLimits
    /// Size in points, scale and padding.
    let viewport: Viewport
    /// Screen ↔ ground for `camera` in `viewport`.
    let projection: ViewProjection
    /// The zoom of the tiles the view is drawn from (`ViewTiles.tileZoom`).
    let tileZoom: Int
    /// West, south, east, north of the visible ground.
    let bounds: GeoBounds
    /// The tiles of `tileZoom` that meet the visible ground: exactly those the PNG is drawn from.
    let tiles: [TileCoordinate]

    /// Resolves `route` with its `query` for `layer`.
    init(route: StaticRoute, query: StaticQuery, layer: Layer) throws(StaticMapError) {
        let width = Double(route.width), height = Double(route.height)
        let padding = query.camera.padding
        guard padding.horizontal < width, padding.vertical < height else {
            throw .paddingLeavesNoRoom(horizontal: padding.horizontal, vertical: padding.vertical,
                                       width: route.width, height: route.height)
        }
        try query.probes.check(width: route.width, height: route.height)
        viewport = Viewport(width: width, height: height, scale: route.scale, padding: padding)
        limits = CameraLimits(minZoom: layer.minZoom, maxZoom: layer.maxZoom, targetBounds: layer.settings.targetBounds)
        camera = try ViewCamera.resolve(route.camera, query: query.camera, viewport: viewport, limits: limits)
        projection = ViewProjection(camera: camera, viewport: viewport)
        let ground = ViewTiles(projection: projection)
        tileZoom = ViewTiles.tileZoom(forZoom: camera.zoom, limits: limits)
        tiles = ground.tiles(atZoom: tileZoom)
        bounds = ground.bounds
    }

    /// The `/static … .json` document (SPEC "HTTP interface"), keys in the documented order.
    var json: JSONValue { .object(jsonMembers) }

    /// The members of `json`, which the `/camera` answer extends.
    var jsonMembers: [(String, JSONValue)] {
        let padding = viewport.padding
        return [
            ("camera", .object([
                ("target", .object([("lat", .number(camera.target.latitude)), ("lon", .number(camera.target.longitude))])),
                ("zoom", .number(camera.zoom)), ("bearing", .number(camera.bearing)), ("tilt", .number(camera.tilt)),
            ])),
            ("size", .object([("width", .number(viewport.width)), ("height", .number(viewport.height)),
                              ("scale", .int(viewport.scale))])),
            ("padding", .object([("top", .number(padding.top)), ("right", .number(padding.right)),
                                 ("bottom", .number(padding.bottom)), ("left", .number(padding.left))])),
            ("bounds", .array(bounds.array.map { .number($0) })),
            ("tiles", .array(tiles.map { .object([("z", .int($0.z)), ("x", .int($0.x)), ("y", .int($0.y))]) })),
        ]
    }
}
