import Foundation

extension Camera {
    /// Radius of the sphere Web Mercator projects (EPSG:3857), in metres: the WGS 84 semi-major axis.
    public static let earthRadius = 6_378_137.0

    /// The largest zoom at which `latitudinalMeters` north–south and `longitudinalMeters` east–west,
    /// centred on `target`, fit the view minus its padding with `target` at the centre of the padded
    /// rectangle, seen straight down and north up: MapKit's
    /// `MKCoordinateRegion(center:latitudinalMeters:longitudinalMeters:)` as a zoom.
    ///
    /// Metres are measured on the EPSG:3857 sphere (`earthRadius`): along the meridian for the
    /// latitudinal span, along the target's parallel for the longitudinal one. The region's edges are
    /// kept inside the Mercator square. Not clamped to any limits: build the camera with
    /// `init(target:zoom:bearing:tilt:limits:)`, which clamps the zoom before the tilt. Spans of zero
    /// give +infinity, which any clamp turns into the largest zoom.
    public static func zoom(showingLatitudinalMeters latitudinalMeters: Double, longitudinalMeters: Double,
                            around target: Coordinate, in viewport: Viewport) -> Double {
        let center = target.normalized()
        let radiansToDegrees = 180 / Double.pi
        let halfLatitude = latitudinalMeters / 2 / earthRadius * radiansToDegrees
        let north = Coordinate.clampedLatitude(center.latitude + halfLatitude)
        let south = Coordinate.clampedLatitude(center.latitude - halfLatitude)
        let middle = MercatorPoint(center).y
        // The target stays at the centre, so the taller half of the region decides.
        let halfHeight = max(middle - MercatorPoint(Coordinate(latitude: north, longitude: 0)).y,
                             MercatorPoint(Coordinate(latitude: south, longitude: 0)).y - middle)
        let parallelRadius = earthRadius * cos(center.latitude / radiansToDegrees)
        let halfWidth = min(longitudinalMeters / 2 / parallelRadius / (2 * .pi), 0.5)

        let tile = Double(WebMercator.tileSize)
        var zooms: [Double] = []
        if halfWidth > 0 { zooms.append(log2(viewport.paddedWidth / 2 / (halfWidth * tile))) }
        if halfHeight > 0 { zooms.append(log2(viewport.paddedHeight / 2 / (halfHeight * tile))) }
        return zooms.min() ?? .infinity
    }
}
