import ArgumentParser
import TileGeometry

/// Parsers for the tile-selecting options shared by `seed`, `tile` and `clear-cache`.
enum TileArgumentParsing {
    /// `A-B` or `A`.
    static func zoomRange(_ text: String) throws -> ClosedRange<Int> {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        guard (1 ... 2).contains(parts.count), let low = parts.first!, let high = parts.last!, low >= 0, low <= high,
              high <= TileCoordinate.maxZoom
        else { throw ValidationError("--zoom \"\(text)\": expected A-B with 0 <= A <= B <= \(TileCoordinate.maxZoom), or one zoom") }
        return low ... high
    }

    /// `west,south,east,north` in degrees (west > east crosses the antimeridian).
    static func bbox(_ text: String) throws -> GeoBounds {
        let values = text.split(separator: ",").map { Double(String($0)) }
        guard values.count == 4, let west = values[0], let south = values[1], let east = values[2], let north = values[3],
              (-180 ... 180).contains(west), (-180 ... 180).contains(east), (-90 ... 90).contains(south),
              (-90 ... 90).contains(north), south < north
        else { throw ValidationError("--bbox \"\(text)\": expected west,south,east,north in degrees with south < north") }
        return GeoBounds(west: west, south: south, east: east, north: north)
    }

    /// `lon,lat,zoom[,bearing[,tilt]]` (the `/static` path's order), clamped to `limits` as `/static`
    /// clamps it (the zoom before the tilt).
    static func camera(_ text: String, limits: CameraLimits) throws -> Camera {
        let values = text.split(separator: ",").map { Double($0) }
        guard (3 ... 5).contains(values.count), values.allSatisfy({ $0 != nil && $0!.isFinite }) else {
            throw ValidationError("--view \"\(text)\": expected lon,lat,zoom[,bearing[,tilt]]")
        }
        let numbers = values.map { $0! }
        return Camera(target: Coordinate(latitude: numbers[1], longitude: numbers[0]), zoom: numbers[2],
                      bearing: numbers.count > 3 ? numbers[3] : 0, tilt: numbers.count > 4 ? numbers[4] : 0, limits: limits)
    }

    /// `WxH` or `WxH@2x`, in points.
    static func viewport(_ text: String) throws -> Viewport {
        var body = Substring(text)
        var scale = 1
        if body.hasSuffix("@2x") {
            scale = 2
            body = body.dropLast(3)
        }
        let parts = body.split(separator: "x").map { Int($0) }
        guard parts.count == 2, let width = parts[0], let height = parts[1], width > 0, height > 0, width <= 8192, height <= 8192 else {
            throw ValidationError("--size \"\(text)\": expected WxH or WxH@2x (1 to 8192 points each)")
        }
        return Viewport(width: Double(width), height: Double(height), scale: scale)
    }

    /// `Z/X/Y`, `Z/X/Y@2x`, optionally with `.png`: the tile and the scale.
    static func tile(_ text: String) throws -> (z: Int, x: Int, y: Int, scale: Int) {
        var body = Substring(text)
        if body.hasSuffix(".png") { body = body.dropLast(4) }
        var scale = 1
        if body.hasSuffix("@2x") {
            scale = 2
            body = body.dropLast(3)
        }
        let parts = body.split(separator: "/", omittingEmptySubsequences: false).map { Int($0) }
        guard parts.count == 3, let z = parts[0], let x = parts[1], let y = parts[2] else {
            throw ValidationError("tile \"\(text)\": expected Z/X/Y or Z/X/Y@2x")
        }
        return (z, x, y, scale)
    }
}
