extension RGBAImage {
    /// One quarter of an image; in tile terms, the child tile (2x, 2y) is `.northWest`.
    public enum Quadrant: Sendable, Equatable, CaseIterable {
        /// Top-left quarter.
        case northWest
        /// Top-right quarter.
        case northEast
        /// Bottom-left quarter.
        case southWest
        /// Bottom-right quarter.
        case southEast

        /// The quadrant holding child tile (x, y) of its parent: even/odd x and y.
        public init(childX x: Int, childY y: Int) {
            switch (x & 1, y & 1) {
            case (0, 0): self = .northWest
            case (1, 0): self = .northEast
            case (0, _): self = .southWest
            default: self = .southEast
            }
        }

        /// 0 for the west half, 1 for the east half.
        var column: Int { self == .northEast || self == .southEast ? 1 : 0 }
        /// 0 for the north half, 1 for the south half.
        var row: Int { self == .southWest || self == .southEast ? 1 : 0 }
    }
}
