import TileGeometry

/// Which of a layer's cached tiles a clear drops: a zoom range and a box, like mod_tile's
/// expiry lists (`?zoom=a-b`, `?bbox=w,s,e,n`); everything when neither is given.
struct CacheClearScope: Sendable, Equatable {
    var zooms: ClosedRange<Int>?
    var bounds: GeoBounds?

    /// Parses the query of a clear request; a bad value is an error message for a 400.
    init(query: [(name: String, value: String)]) throws(CacheClearScopeError) {
        for (name, value) in query {
            switch name {
            case "zoom":
                let parts = value.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
                guard (1 ... 2).contains(parts.count), let low = parts.first ?? nil, let high = parts.last ?? nil,
                      low >= 0, low <= high, high <= TileCoordinate.maxZoom else {
                    throw CacheClearScopeError(message: "zoom=\(value) is not a zoom or a range a-b (0-\(TileCoordinate.maxZoom))")
                }
                zooms = low ... high
            case "bbox":
                let numbers = value.split(separator: ",", omittingEmptySubsequences: false).compactMap { Double($0) }
                guard numbers.count == 4, numbers[0] < numbers[2], numbers[1] < numbers[3],
                      numbers[0] >= -180, numbers[2] <= 180, numbers[1] >= -90, numbers[3] <= 90 else {
                    throw CacheClearScopeError(message: "bbox=\(value) is not west,south,east,north in degrees")
                }
                bounds = GeoBounds(west: numbers[0], south: numbers[1], east: numbers[2], north: numbers[3])
            default:
                throw CacheClearScopeError(message: "unknown parameter \"\(name)\" (zoom=a-b, bbox=w,s,e,n)")
            }
        }
    }

    /// Whether a cached tile falls in the scope.
    func contains(_ tile: TileCoordinate) -> Bool {
        if let zooms, !zooms.contains(tile.z) { return false }
        if let bounds, !tile.bounds.intersects(bounds) { return false }
        return true
    }

    /// Whether the scope is the whole layer.
    var isEverything: Bool { zooms == nil && bounds == nil }
}

/// A clear request's query that cannot be understood.
struct CacheClearScopeError: Error, Equatable {
    var message: String
}
