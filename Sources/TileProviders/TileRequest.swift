import TileGeometry

/// One tile asked of a provider: where, and the values of the layer's named variables.
public struct TileRequest: Sendable, Hashable, CustomStringConvertible {
    /// The tile (x already wrapped into the grid).
    public var tile: TileCoordinate
    /// Named variables (`{floor}` → "2"), already checked against the layer's declarations.
    public var variables: [String: String]

    /// A request.
    public init(tile: TileCoordinate, variables: [String: String] = [:]) {
        self.tile = tile
        self.variables = variables
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
