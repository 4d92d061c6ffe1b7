import TileGeometry

extension StaticView {
    /// The `/camera` document (SPEC "Camera API"): the `/static … .json` members, then `visibleRegion`,
    /// `center`, `limits`, `points` and `coordinates`. A ground position is `{"lat", "lon"}` (longitude
    /// wrapped into [-180, 180)); null where there is no ground (above the horizon).
    func cameraJSON(probes: CameraProbes) -> JSONValue {
        let region = VisibleRegion(projection: projection)
        let visibleRegion: JSONValue = region.map { region in
            .object([("nearLeft", Self.ground(region.nearLeft)), ("nearRight", Self.ground(region.nearRight)),
                     ("farLeft", Self.ground(region.farLeft)), ("farRight", Self.ground(region.farRight))])
        } ?? .null
        return .object(jsonMembers + [
            ("visibleRegion", visibleRegion),
            // The ground at the geometric centre of the view; with padding it is not the target.
            ("center", Self.ground(projection.screenToGround(viewport.center))),
            ("limits", .object([("minZoom", .number(limits.minZoom)), ("maxZoom", .number(limits.maxZoom)),
                                ("maxTilt", .number(Camera.maxTilt(atZoom: camera.zoom)))])),
            ("points", .array(probes.points.map(point))),
            ("coordinates", .array(probes.coordinates.map(coordinate))),
        ])
    }

    /// `{x, y, lat, lon}`: the ground seen at a screen point.
    private func point(_ point: ScreenPoint) -> JSONValue {
        let ground = projection.screenToGround(point)
        return .object([("x", .number(point.x)), ("y", .number(point.y)),
                        ("lat", ground.map { .number($0.latitude) } ?? .null),
                        ("lon", ground.map { .number($0.longitude) } ?? .null)])
    }

    /// `{lat, lon, x, y, visible}`: where a coordinate (normalized) is drawn, and whether that is on the
    /// drawn ground of the view (inside the view and below `groundTopY`, where the PNG shows ground).
    private func coordinate(_ coordinate: Coordinate) -> JSONValue {
        let normalized = coordinate.normalized()
        let screen = projection.groundToScreen(normalized)
        let visible = screen.map { point in
            (0...viewport.width).contains(point.x) && (projection.groundTopY...viewport.height).contains(point.y)
        } ?? false
        return .object([("lat", .number(normalized.latitude)), ("lon", .number(normalized.longitude)),
                        ("x", screen.map { .number($0.x) } ?? .null), ("y", screen.map { .number($0.y) } ?? .null),
                        ("visible", .bool(visible))])
    }

    /// `{"lat", "lon"}`, or null for no ground.
    private static func ground(_ coordinate: Coordinate?) -> JSONValue {
        guard let coordinate else { return .null }
        return .object([("lat", .number(coordinate.latitude)), ("lon", .number(coordinate.longitude))])
    }
}
