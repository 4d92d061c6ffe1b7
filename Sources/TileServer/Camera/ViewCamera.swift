import TileGeometry

/// The camera of a `/static` or `/camera` view, as the SDK's `moveCamera` calls would leave it: the
/// path's camera (or the `auto` fit of `bounds`), then `span`, then each `update` in order, with every
/// clamp (zoom range, target bounds, latitude, longitude wrap, tilt at the zoom) after each step.
enum ViewCamera {
    /// The camera `request` and `query` name in `viewport` under `limits`.
    static func resolve(_ request: StaticRoute.CameraRequest, query: CameraQuery, viewport: Viewport,
                        limits: CameraLimits) throws(StaticMapError) -> Camera {
        var camera: Camera
        switch request {
        case .explicit(let longitude, let latitude, let zoom, let bearing, let tilt):
            // Values as asked for: the zoom is clamped before the tilt (CameraUpdate.setCamera).
            camera = Camera(target: Coordinate(latitude: latitude, longitude: longitude), zoom: zoom,
                            bearing: bearing, tilt: tilt, limits: limits)
            if let zoom = spanZoom(query, around: camera.target, in: viewport) {
                camera = Camera(target: camera.target, zoom: zoom, bearing: bearing, tilt: tilt, limits: limits)
            }
        case .auto:
            guard let box = query.bounds else { throw .missingBounds }
            camera = Camera.fitting(box, in: viewport, insets: query.fitPadding ?? .zero, limits: limits)
            if let zoom = spanZoom(query, around: camera.target, in: viewport) {
                camera = Camera(target: camera.target, zoom: zoom, limits: limits)
            }
        }
        // A `fit:` without its own padding: `fitPadding`, else the SDK's `fit(_:)` default of 64 points.
        let fitInsets = query.fitPadding ?? EdgeInsets(all: CameraUpdate.defaultFitPadding)
        for update in query.updates {
            let change = try update.cameraUpdate(in: viewport, fitInsets: fitInsets)
            camera = change.applied(to: camera, in: viewport, limits: limits)
        }
        return camera
    }

    /// The zoom `span=` asks for around `target`, nil without one.
    private static func spanZoom(_ query: CameraQuery, around target: Coordinate, in viewport: Viewport) -> Double? {
        query.span.map {
            Camera.zoom(showingLatitudinalMeters: $0.latitudinal, longitudinalMeters: $0.longitudinal,
                        around: target, in: viewport)
        }
    }
}
