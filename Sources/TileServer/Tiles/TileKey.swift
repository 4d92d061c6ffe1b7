import TileGeometry

/// The identity of one answer in the tile cache: layer, tile, pixel scale and variables.
public struct TileKey: Sendable, Hashable, CustomStringConvertible {
    /// The layer's name.
    public var layer: String
    /// The tile (x wrapped).
    public var tile: TileCoordinate
    /// 1 (256 px) or 2 (512 px).
    public var scale: Int
    /// The layer's variables ({floor} → "2"); empty for most layers.
    public var variables: [String: String]

    /// A key.
    public init(layer: String, tile: TileCoordinate, scale: Int, variables: [String: String] = [:]) {
        self.layer = layer
        self.tile = tile
        self.scale = scale
        self.variables = variables
    }

    public var description: String {
        "\(layer)/\(tile)\(scale == 2 ? "@2x" : "")"
            + (variables.isEmpty ? "" : "?" + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
    }
}
