internal import CGDAL
import Foundation
import TileGeometry

/// Where a raster lies on the Web Mercator map: its footprint (edges densified, transformed to
/// WGS84, latitude clamped to the Mercator square) and the zoom that reaches its resolution.
struct RasterPlacement {
    /// Points per edge when the footprint is transformed (a curved edge in WGS84 stays inside).
    static let edgePoints = 21

    let footprint: GeoBounds
    let mercator: (minX: Double, minY: Double, maxX: Double, maxY: Double)
    let nativeZoom: Int

    init(_ dataset: GDALDataset) throws(ImageryError) {
        let location = dataset.location.description
        guard let transform = dataset.geoTransform, !dataset.projection.isEmpty else {
            throw .unusable(location: location, reason: "it is not georeferenced (no coordinate system or geotransform)")
        }
        let toWGS84 = try CoordinateTransform(fromWKT: dataset.projection, location: location)
        let width = Double(dataset.width), height = Double(dataset.height)
        var pixels: [(Double, Double)] = []
        for step in 0 ..< Self.edgePoints {
            let f = Double(step) / Double(Self.edgePoints - 1)
            pixels += [(f * width, 0), (f * width, height), (0, f * height), (width, f * height)]
        }
        let points = toWGS84.apply(pixels.map { Self.georeferenced($0, transform) })
        guard !points.isEmpty else {
            throw .unusable(location: location, reason: "its corners do not transform to longitude and latitude")
        }
        let west = max(-180, points.map(\.x).min()!), east = min(180, points.map(\.x).max()!)
        let south = max(-WebMercator.maxLatitude, points.map(\.y).min()!)
        let north = min(WebMercator.maxLatitude, points.map(\.y).max()!)
        guard west < east, south < north else {
            throw .unusable(location: location, reason: "it lies outside the Web Mercator square")
        }
        footprint = GeoBounds(west: west, south: south, east: east, north: north)
        let low = TileBox.mercator(lon: west, lat: south), high = TileBox.mercator(lon: east, lat: north)
        mercator = (low.x, low.y, high.x, high.y)
        // Native resolution: one pixel's steps east and south at the raster's centre, in metres of EPSG:3857.
        let centre = toWGS84.apply([(width / 2, height / 2), (width / 2 + 1, height / 2), (width / 2, height / 2 + 1)]
            .map { Self.georeferenced($0, transform) }).map { TileBox.mercator(lon: $0.x, lat: $0.y) }
        guard centre.count == 3 else {
            throw .unusable(location: location, reason: "its centre does not transform to longitude and latitude")
        }
        let stepX = hypot(centre[1].x - centre[0].x, centre[1].y - centre[0].y)
        let stepY = hypot(centre[2].x - centre[0].x, centre[2].y - centre[0].y)
        let resolution = min(stepX, stepY)
        // The first zoom whose 256 px tiles are as fine as the data (a hair of tolerance).
        let zoom = log2(TileBox.resolution(zoom: 0) / resolution)
        nativeZoom = max(0, min(TileCoordinate.maxZoom, Int((zoom - 0.01).rounded(.up))))
    }

    private static func georeferenced(_ pixel: (Double, Double), _ t: [Double]) -> (Double, Double) {
        (t[0] + pixel.0 * t[1] + pixel.1 * t[2], t[3] + pixel.0 * t[4] + pixel.1 * t[5])
    }
}

/// OGR's transformation from a coordinate system to WGS84 longitude, latitude.
final class CoordinateTransform {
    private let source: OGRSpatialReferenceH
    private let target: OGRSpatialReferenceH
    private let transform: OGRCoordinateTransformationH

    init(fromWKT wkt: String, location: String) throws(ImageryError) {
        source = OSRNewSpatialReference(wkt)
        target = OSRNewSpatialReference(nil)
        OSRImportFromEPSG(target, 4326)
        // Longitude first, whatever the CRS's official axis order.
        OSRSetAxisMappingStrategy(source, OAMS_TRADITIONAL_GIS_ORDER)
        OSRSetAxisMappingStrategy(target, OAMS_TRADITIONAL_GIS_ORDER)
        GDALMessages.reset()
        guard let made = OCTNewCoordinateTransformation(source, target) else {
            OSRDestroySpatialReference(source)
            OSRDestroySpatialReference(target)
            throw .unusable(location: location, reason: "its coordinate system cannot be transformed to WGS84: \(GDALMessages.take())")
        }
        transform = made
    }

    deinit {
        OCTDestroyCoordinateTransformation(transform)
        OSRDestroySpatialReference(source)
        OSRDestroySpatialReference(target)
    }

    /// The points that transform (those that fail are left out).
    func apply(_ points: [(Double, Double)]) -> [(x: Double, y: Double)] {
        var xs = points.map(\.0), ys = points.map(\.1), zs = [Double](repeating: 0, count: points.count)
        var ok = [Int32](repeating: 0, count: points.count)
        _ = OCTTransformEx(transform, Int32(points.count), &xs, &ys, &zs, &ok)
        return points.indices.compactMap { ok[$0] != 0 && xs[$0].isFinite && ys[$0].isFinite ? (xs[$0], ys[$0]) : nil }
    }
}
