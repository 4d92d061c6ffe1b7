import TilePNG

/// Bilinear reads from a `TileAtlas` in world pixel coordinates of its zoom, x wrapping around the
/// antimeridian and y clamped to the world's edge rows. Remembers the last tile it looked up, so a
/// run of samples inside one tile costs no dictionary lookup.
///
/// Not `Sendable`: `texels` points into the atlas's buffer and is valid only inside the caller's
/// `withUnsafeBufferPointer`; each drawing band makes its own sampler there.
struct TileSampler {
    private let atlas: TileAtlas
    private let texels: UnsafePointer<UInt8>?
    private let sideShift: Int
    private let sideMask: Int
    private let world: Int
    private var cachedTile = -1
    private var cachedOffset = Self.absent
    private var recordedTile = -1
    /// Row-major indices (`row * tilesPerSide + column`) of the atlas tiles a tap of positive weight read.
    private(set) var sampledTiles = Set<Int>()

    /// `TexelSum` weights for a tile outside the view's list: the sample ignores it.
    private static let absent = -2
    /// For a "no tile": transparent.
    private static let noTile = -1

    init(atlas: TileAtlas, texels: UnsafePointer<UInt8>?) {
        self.atlas = atlas
        self.texels = texels
        sideShift = atlas.tileSide.trailingZeroBitCount
        sideMask = atlas.tileSide - 1
        world = atlas.worldPixels
    }

    /// The alpha-weighted blend of the four tile pixels around (`x`, `y`), where pixel (i, j) has its
    /// centre at (i, j) (callers subtract half a pixel). Taps outside the atlas do not count.
    @inline(__always)
    mutating func bilinear(x: Double, y: Double) -> TexelSum {
        let left = Self.floor(x), top = Self.floor(y)
        let fx = x - Double(left), fy = y - Double(top)
        let y0 = min(max(top, 0), world - 1), y1 = min(max(top + 1, 0), world - 1)
        var x0 = left % world
        if x0 < 0 { x0 += world }
        let x1 = x0 + 1 == world ? 0 : x0 + 1
        var sum = TexelSum()
        add(x0, y0, (1 - fx) * (1 - fy), to: &sum)
        add(x1, y0, fx * (1 - fy), to: &sum)
        add(x0, y1, (1 - fx) * fy, to: &sum)
        add(x1, y1, fx * fy, to: &sum)
        return sum.normalized()
    }

    /// floor(value) as an Int without a libm call (values are a few world widths at most).
    @inline(__always)
    private static func floor(_ value: Double) -> Int {
        let truncated = Int(value)
        return Double(truncated) > value ? truncated - 1 : truncated
    }

    @inline(__always)
    private mutating func add(_ x: Int, _ y: Int, _ weight: Double, to sum: inout TexelSum) {
        let column = x >> sideShift, row = y >> sideShift
        let tile = row &* atlas.tilesPerSide &+ column
        if tile != cachedTile {
            cachedTile = tile
            switch atlas.slot(column: column, row: row) {
            case .image(let offset): cachedOffset = offset
            case .noTile: cachedOffset = Self.noTile
            case .absent: cachedOffset = Self.absent
            }
        }
        if cachedOffset == Self.absent { return }
        sum.weight += weight
        if weight > 0, tile != recordedTile {
            recordedTile = tile
            sampledTiles.insert(tile)
        }
        guard cachedOffset >= 0, let texels else { return }
        let texel = texels + cachedOffset + (((y & sideMask) << sideShift) + (x & sideMask)) * RGBAImage.bytesPerPixel
        let alpha = Double(texel[3]) * weight
        sum.red += Double(texel[0]) * alpha
        sum.green += Double(texel[1]) * alpha
        sum.blue += Double(texel[2]) * alpha
        sum.alpha += alpha
    }
}
