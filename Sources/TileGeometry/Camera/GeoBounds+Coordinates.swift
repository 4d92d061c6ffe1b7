extension GeoBounds {
    /// The smallest box holding both coordinates, the SDK's
    /// `GMSCoordinateBounds(coordinate:coordinate:)`; it never crosses the antimeridian.
    public init(_ first: Coordinate, _ second: Coordinate) {
        self.init(west: min(first.longitude, second.longitude), south: min(first.latitude, second.latitude),
                  east: max(first.longitude, second.longitude), north: max(first.latitude, second.latitude))
    }

    /// Whether the box crosses the antimeridian (RFC 7946 §5.2: west greater than east).
    public var crossesAntimeridian: Bool { west > east }

    /// Whether `coordinate` lies inside the box (edges included), longitudes compared round the world.
    public func contains(_ coordinate: Coordinate) -> Bool {
        guard coordinate.latitude >= south, coordinate.latitude <= north else { return false }
        return CameraLimits.clampLongitude(coordinate.longitude, self) == coordinate.longitude
    }
}
