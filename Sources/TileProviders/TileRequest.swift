import TileGeometry

/// One tile asked of a provider: where, and the values of the layer's named variables.
public struct TileRequest: Sendable, Hashable, CustomStringConvertible {
    /// The tile (x already wrapped into the grid).
    public var tile: TileCoordinate
    /// Named variables (`{floor}` → "2"), already checked against the layer's declarations.
    public var variables: [String: String]
    /// 1, or 2 for `@2x`: asked only of a provider that `rendersEveryScale` (others get 1).
    public var scale: Int

    /// A request.
    public init(tile: TileCoordinate, variables: [String: String] = [:], scale: Int = 1) {
        self.tile = tile
        self.variables = variables
        self.scale = scale
    }

    /// A request for column `x`, row `y` of zoom `zoom`.
    public init(x: Int, y: Int, zoom: Int, variables: [String: String] = [:]) {
        self.init(tile: TileCoordinate(z: zoom, x: x, y: y), variables: variables)
    }

    public var description: String {
        variables.isEmpty ? tile.description
            : tile.description + "?" + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&")
    }
}
