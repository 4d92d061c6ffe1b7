import Foundation

extension Camera {
    /// The camera that shows `bounds` as large as possible (`GMSCameraUpdate.fit(_:with:)`):
    /// bearing 0, tilt 0, the largest zoom at which the box fits inside the viewport minus its padding
    /// and minus `insets`, and the box centred in that rectangle. The zoom is then clamped to `limits`
    /// and the target to `limits.targetBounds`: raised to `minZoom`, the box overflows the room;
    /// lowered to `maxZoom`, it fits with room to spare.
    ///
    /// A box with west > east crosses the antimeridian. A box of zero size (one point) gets
    /// `limits.maxZoom`; a viewport with no room left after the insets gets `limits.minZoom`, centred on the box.
    public static func fitting(_ bounds: GeoBounds, in viewport: Viewport, insets: EdgeInsets = .zero,
                               limits: CameraLimits = .none) -> Camera {
        let northWest = MercatorPoint(Coordinate(latitude: Coordinate.clampedLatitude(bounds.north),
                                                 longitude: bounds.west))
        var southEast = MercatorPoint(Coordinate(latitude: Coordinate.clampedLatitude(bounds.south),
                                                 longitude: bounds.east))
        if southEast.x < northWest.x { southEast.x += 1 }
        let boxWidth = southEast.x - northWest.x
        let boxHeight = abs(southEast.y - northWest.y)

        let clear = viewport.padding + insets
        let roomWidth = viewport.width - clear.horizontal
        let roomHeight = viewport.height - clear.vertical
        let zoom = limits.clampZoom(fittingZoom(boxWidth: boxWidth, boxHeight: boxHeight,
                                                roomWidth: roomWidth, roomHeight: roomHeight) ?? limits.maxZoom)
        let worldSize = WebMercator.worldSize(atZoom: zoom)

        // The box centre goes to the centre of the room, which differs from the principal point
        // (the centre of the padded view) when the insets are uneven. With no room left there is no
        // room centre (and insets may be huge): the box centre is the target.
        let principal = viewport.targetPoint
        let hasRoom = roomWidth > 0 && roomHeight > 0
        let offsetX = hasRoom ? clear.left + roomWidth / 2 - principal.x : 0
        let offsetY = hasRoom ? clear.top + roomHeight / 2 - principal.y : 0
        let target = MercatorPoint(x: (northWest.x + southEast.x) / 2 - offsetX / worldSize,
                                   y: (northWest.y + southEast.y) / 2 - offsetY / worldSize)
        return Camera(target: target.coordinate, zoom: zoom).clamped(to: limits)
    }

    /// log2 of the largest scale at which a box (unit-Mercator size) fits a room (points);
    /// nil for an empty box, -infinity when there is no room.
    private static func fittingZoom(boxWidth: Double, boxHeight: Double,
                                    roomWidth: Double, roomHeight: Double) -> Double? {
        guard roomWidth > 0, roomHeight > 0 else { return -.infinity }
        let tile = Double(WebMercator.tileSize)
        var zooms: [Double] = []
        if boxWidth > 0 { zooms.append(log2(roomWidth / (boxWidth * tile))) }
        if boxHeight > 0 { zooms.append(log2(roomHeight / (boxHeight * tile))) }
        return zooms.min()
    }
}
