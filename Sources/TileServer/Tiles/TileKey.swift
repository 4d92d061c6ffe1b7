import TileGeometry

/// The identity of one answer in the tile cache: layer, tile, pixel scale, variables, and the
/// generation of the layer it was made by (stamped by the pipeline; not part of a disk path).
public struct TileKey: Sendable, Hashable, CustomStringConvertible {
    /// The layer's name.
    public var layer: String
    /// The tile (x wrapped).
    public var tile: TileCoordinate
    /// 1 (256 px) or 2 (512 px).
    public var scale: Int
    /// The layer's variables ({floor} → "2"); empty for most layers.
    public var variables: [String: String]
    /// The layer's generation (see `TileGeneration`); `.unstamped` until the pipeline sets it.
    public var generation: TileGeneration

    /// A key.
    public init(
        layer: String, tile: TileCoordinate, scale: Int, variables: [String: String] = [:],
        generation: TileGeneration = .unstamped
    ) {
        self.layer = layer
        self.tile = tile
        self.scale = scale
        self.variables = variables
        self.generation = generation
    }

    /// Hashes what tells keys apart, packed into few words (each word costs the hasher a round):
    /// x and y in one (both below 2^32 at any zoom a tile can have), zoom, scale and the
    /// generation's clears in another, its build in a third. An empty `variables` (most layers)
    /// adds nothing, so a memory hit does not hash an empty dictionary (equal keys still hash
    /// equally; keys that differ only where the packing overlaps, a clear count past 2^47, share
    /// a bucket, which costs time, never a wrong answer).
    public func hash(into hasher: inout Hasher) {
        hasher.combine(layer)
        hasher.combine(UInt64(UInt32(truncatingIfNeeded: tile.x)) << 32 | UInt64(UInt32(truncatingIfNeeded: tile.y)))
        hasher.combine(tile.z &+ scale << 8 &+ generation.clears << 16)
        hasher.combine(generation.build)
        if !variables.isEmpty { hasher.combine(variables) }
    }

    /// Spreads keys over a memory cache's shards, and tells them apart in its frequency sketch,
    /// without a full SipHash (`MemoryCache`'s `shardHash`): tile, scale, generation and a
    /// multiplicative hash of the layer name; the variables' own hash when there are any.
    static let shardHash: @Sendable (TileKey) -> Int = { key in
        var name = 0
        _ = key.layer.utf8.withContiguousStorageIfAvailable { bytes in
            for byte in bytes { name = name &* 31 &+ Int(byte) }
        }
        var hash = (key.tile.x &* 0x1F1F_1F1F) ^ (key.tile.y &* 0x7FFF_FFED) ^ (key.tile.z << 56) ^ (key.scale << 52)
            ^ (name &* 0x2545_F491_4F6C_DD1D) ^ (key.generation.build &* 0x1656_67B1) ^ (key.generation.clears << 40)
        if !key.variables.isEmpty { hash ^= key.variables.hashValue }
        return hash
    }

    public var description: String {
        "\(layer)/\(tile)\(scale == 2 ? "@2x" : "")"
            + (variables.isEmpty ? "" : "?" + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
    }
}
