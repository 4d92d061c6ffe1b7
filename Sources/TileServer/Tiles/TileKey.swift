import TileGeometry

/// The identity of one answer in the tile cache: layer, tile, pixel scale, variables, and the
/// generation of the layer it was made by (stamped by the pipeline; not part of a disk path).
public struct TileKey: Sendable, Hashable, CustomStringConvertible {
    /// The layer's name.
    public let layer: String
    /// `nameHash(layer)`, made once per key: a key is hashed several times a request (memory
    /// cache, open files, fingerprints), and a name's bytes cost a few instructions each time.
    private let layerHash: Int
    /// The tile (x wrapped).
    public var tile: TileCoordinate
    /// 1 (256 px) or 2 (512 px).
    public var scale: Int
    /// The layer's variables ({floor} → "2"); empty for most layers.
    public var variables: [String: String] {
        get { someVariables ?? [:] }
        set { someVariables = newValue.isEmpty ? nil : newValue }
    }
    /// `variables`, nil when there are none (most layers): a key is copied and destroyed several
    /// times a request, and a nil costs those no reference count.
    private var someVariables: [String: String]?
    /// The layer's generation (see `TileGeneration`); `.unstamped` until the pipeline sets it.
    public var generation: TileGeneration

    /// A key.
    public init(
        layer: String, tile: TileCoordinate, scale: Int, variables: [String: String] = [:],
        generation: TileGeneration = .unstamped
    ) {
        self.layer = layer
        self.layerHash = Self.nameHash(layer)
        self.tile = tile
        self.scale = scale
        self.someVariables = variables.isEmpty ? nil : variables
        self.generation = generation
    }

    /// Hashes what tells keys apart in two words (each word costs the hasher a round, and a
    /// `String` several): x and y in one (both below 2^32 at any zoom a tile can have); zoom and
    /// scale in the low bits of the other, with the layer's name (`nameHash`) and the
    /// generation mixed in above them. What a request chooses (tile, zoom, scale) goes in
    /// unmixed, so for one layer and generation two keys that differ there differ in what is
    /// hashed: requests cannot be made to share a bucket. Keys that differ only in what the
    /// server chose (layer, generation) may share one, which costs time, never a wrong answer.
    /// An empty `variables` (most layers) adds nothing, so a lookup does not hash an empty
    /// dictionary.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(UInt64(UInt32(truncatingIfNeeded: tile.x)) << 32 | UInt64(UInt32(truncatingIfNeeded: tile.y)))
        hasher.combine(tile.z &+ scale << 8 ^ serverChosenBits)
        if let someVariables { hasher.combine(someVariables) }
    }

    /// The layer's name and the generation, mixed, above the low 16 bits (zoom and scale).
    private var serverChosenBits: Int {
        (layerHash &* 0x2545_F491_4F6C_DD1D ^ generation.build &* 0x1656_67B1 ^ generation.clears << 24) << 16
    }

    /// A multiplicative hash of a layer name (short ASCII: a few instructions a byte).
    private static func nameHash(_ name: String) -> Int {
        func fold(_ bytes: some Sequence<UInt8>) -> Int { bytes.reduce(0) { $0 &* 31 &+ Int($1) } }
        return name.utf8.withContiguousStorageIfAvailable(fold) ?? fold(name.utf8)
    }

    /// Spreads keys over a memory cache's shards, and tells them apart in its frequency sketch,
    /// without a full SipHash (`MemoryCache`'s `shardHash`): tile, scale, generation and a
    /// multiplicative hash of the layer name; the variables' own hash when there are any.
    static let shardHash: @Sendable (TileKey) -> Int = { key in
        var hash = (key.tile.x &* 0x1F1F_1F1F) ^ (key.tile.y &* 0x7FFF_FFED) ^ (key.tile.z << 56) ^ (key.scale << 52)
            ^ key.serverChosenBits
        if let variables = key.someVariables { hash ^= variables.hashValue }
        return hash
    }

    public var description: String {
        "\(layer)/\(tile)\(scale == 2 ? "@2x" : "")"
            + (variables.isEmpty ? "" : "?" + variables.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "&"))
    }
}
