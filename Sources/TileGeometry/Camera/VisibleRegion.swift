/// The ground at the corners of a view, the Maps SDK's `GMSVisibleRegion`: near is the bottom edge of
/// the screen, far the top edge of the ground drawn (below `ViewProjection.groundTopY`, so a tilted
/// view's far corners stop short of the horizon). Longitudes are wrapped into [-180, 180).
public struct VisibleRegion: Sendable, Hashable {
    /// The ground at the bottom-left corner.
    public let nearLeft: Coordinate
    /// The ground at the bottom-right corner.
    public let nearRight: Coordinate
    /// The ground at the top-left corner of the drawn ground.
    public let farLeft: Coordinate
    /// The ground at the top-right corner of the drawn ground.
    public let farRight: Coordinate

    /// The region `projection` shows; nil when it shows no ground.
    public init?(projection: ViewProjection) {
        // ViewTiles.corners: top-left, top-right, bottom-right, bottom-left (see its comment).
        let corners = ViewTiles(projection: projection).corners.map { mercator in
            let coordinate = mercator.coordinate
            return Coordinate(latitude: coordinate.latitude, longitude: Coordinate.wrappedLongitude(coordinate.longitude))
        }
        guard corners.count == 4 else { return nil }
        farLeft = corners[0]
        farRight = corners[1]
        nearRight = corners[2]
        nearLeft = corners[3]
    }
}
