import TileGeometry

/// One `update=` of a view query (`zoomBy:2@100,80`), read but not yet applied: its screen point is
/// checked against the view size and a `fit:` without padding takes the query's fit padding when
/// the view is resolved (`cameraUpdate(in:fitInsets:)`).
struct ViewUpdate: Sendable, Equatable {
    /// What the update does.
    enum Kind: Sendable, Equatable {
        /// Any update but `fit:` (whose padding may come from elsewhere in the query).
        case camera(CameraUpdate)
        /// `fit:W,S,E,N[,PADDING]`.
        case fit(GeoBounds, padding: Double?)
    }

    /// 1-based position among the query's updates, for errors.
    let index: Int
    /// The value as written, for errors.
    let text: String
    /// The update.
    let kind: Kind

    /// The camera update this value asks for in `viewport`; a `fit:` without its own padding keeps
    /// `fitInsets` clear (the query's `fitPadding`, else `CameraUpdate.defaultFitPadding`).
    func cameraUpdate(in viewport: Viewport, fitInsets: EdgeInsets) throws(StaticMapError) -> CameraUpdate {
        switch kind {
        case .camera(.zoomBy(let delta, let point?)):
            guard (0...viewport.width).contains(point.x), (0...viewport.height).contains(point.y) else {
                throw .pointOutsideView(name: "update \(index) \"\(text)\": point", x: point.x, y: point.y,
                                        width: Int(viewport.width), height: Int(viewport.height))
            }
            return .zoomBy(delta, point: point)
        case .camera(let update):
            return update
        case .fit(let bounds, let padding):
            return .fitBounds(bounds, insets: padding.map { EdgeInsets(all: $0) } ?? fitInsets)
        }
    }
}
