import Synchronization

/// Which version of a layer a cached answer belongs to: the build of the layer (a new one for
/// every reload that rebuilds it) and the sum of the clear counts of the layer and, for a
/// composite, of its members. Both only grow, so a rebuild or a clear of the layer or of any
/// member makes every earlier key unreachable (martin's `matches_source`): the key decides its
/// own invalidation, with no window between a swap or a clear and the removal of old entries.
public struct TileGeneration: Sendable, Hashable {
    /// The `Layer.build` the answer was made by.
    public var build: Int
    /// Clears of the layer and its members when the answer was asked for.
    public var clears: Int

    /// A generation.
    public init(build: Int, clears: Int) {
        self.build = build
        self.clears = clears
    }

    /// The generation of a key not yet stamped by the pipeline.
    public static let unstamped = TileGeneration(build: 0, clears: 0)

    /// Hands out build numbers: one per `Layer` built in this process, never 0.
    static func nextBuild() -> Int { builds.add(1, ordering: .relaxed).newValue }
    private static let builds = Atomic<Int>(0)
}
