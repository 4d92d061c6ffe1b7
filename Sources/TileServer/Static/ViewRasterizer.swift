import TileGeometry

/// Draws a view from a `TileAtlas`: every output pixel goes through `ViewProjection.screenToMercator`
/// to the ground, and the tile pixels around that ground point are blended bilinearly, weighted by
/// alpha (premultiplied), so transparent tiles never darken their neighbours' edges.
///
/// Resampling choice: the tiles are of zoom floor(view zoom) (`ViewTiles.tileZoom`), so at tilt 0 an
/// output pixel spans at most one tile pixel and bilinear filtering is enough; at an integer zoom
/// and bearing 0 it reproduces the tiles pixel for pixel. Tilt shrinks the far ground: a row whose
/// pixels span more than one tile pixel takes n × n bilinear taps per pixel (n = the span rounded
/// up, at most `maxTapsPerSide`) and averages them, a box filter over the pixel. Lower-zoom tiles
/// for far rows would cost fewer taps but would mix zooms in the view's tile list; the one-zoom list
/// stays exactly what `ViewTiles` reports.
struct ViewRasterizer: Sendable {
    /// The view drawn.
    let projection: ViewProjection
    /// Its tiles, decoded.
    let atlas: TileAtlas

    /// Most taps per side of a pixel on far, tilted rows (16 taps a pixel).
    static let maxTapsPerSide = 4
    /// Spans this close above one tile pixel still count as one (rounding, not minification).
    static let spanTolerance = 1e-6

    /// Output width in pixels.
    var pixelWidth: Int { projection.viewport.pixelWidth }
    /// Output height in pixels.
    var pixelHeight: Int { projection.viewport.pixelHeight }

    /// Some rows of the view.
    struct Band: Sendable {
        /// RGBA8, straight alpha, top to bottom.
        var pixels: [UInt8]
        /// The tiles whose pixels they were drawn from.
        var sampled: Set<TileCoordinate>
    }

    /// Output rows `rows`.
    func draw(rows: Range<Int>) -> Band {
        let width = pixelWidth
        let scale = Double(projection.viewport.scale)
        let world = Double(atlas.worldPixels)
        var output = [UInt8](repeating: 0, count: rows.count * width * 4)
        var sums = [TexelSum](repeating: TexelSum(), count: width)
        let sampledTiles = atlas.pixels.withUnsafeBufferPointer { texels in
            output.withUnsafeMutableBufferPointer { out in
                var sampler = TileSampler(atlas: atlas, texels: texels.baseAddress)
                for row in rows {
                    let taps = tapsPerSide(row: row, scale: scale, world: world)
                    let base = (row - rows.lowerBound) * width * 4
                    if taps == 1 {
                        drawRow(row, base: base, width: width, scale: scale, world: world, sampler: &sampler, into: out)
                        continue
                    }
                    let step = 1 / Double(taps)
                    for index in sums.indices { sums[index] = TexelSum() }
                    for tapRow in 0..<taps {
                        let y = (Double(row) + (Double(tapRow) + 0.5) * step) / scale
                        guard let line = groundLine(y: y, world: world) else { continue }
                        for column in 0..<width {
                            for tapColumn in 0..<taps {
                                let x = (Double(column) + (Double(tapColumn) + 0.5) * step) / scale
                                let sourceY = line.originY + x * line.deltaY
                                // Beyond ±85.05° (outside the Mercator square) stays transparent.
                                guard sourceY >= -0.5, sourceY < world - 0.5 else { continue }
                                sums[column].add(sampler.bilinear(x: line.originX + x * line.deltaX, y: sourceY))
                            }
                        }
                    }
                    let count = Double(taps * taps)
                    for column in 0..<width {
                        sums[column].write(to: out, at: base + column * 4, samples: count)
                    }
                }
                return sampler.sampledTiles
            }
        }
        let side = atlas.tilesPerSide
        return Band(pixels: output, sampled: Set(sampledTiles.map { TileCoordinate(z: atlas.zoom, x: $0 % side, y: $0 / side) }))
    }

    /// Where screen row `y` (points) meets the ground, as source pixel = origin + x · delta (the ground
    /// moves linearly along a screen row); nil above `groundTopY` (sky: no ground, no tile listed).
    private func groundLine(y: Double, world: Double) -> (originX: Double, originY: Double, deltaX: Double, deltaY: Double)? {
        guard y >= projection.groundTopY,
              let start = projection.screenToMercator(ScreenPoint(x: 0, y: y)),
              let next = projection.screenToMercator(ScreenPoint(x: 1, y: y)) else { return nil }
        return (start.x * world - 0.5, start.y * world - 0.5, (next.x - start.x) * world, (next.y - start.y) * world)
    }

    /// A row with one bilinear tap per pixel (no minification: every tilt-0 view), written straight
    /// to the output without the per-column sums.
    @inline(__always)
    private func drawRow(
        _ row: Int, base: Int, width: Int, scale: Double, world: Double, sampler: inout TileSampler,
        into out: UnsafeMutableBufferPointer<UInt8>
    ) {
        guard let line = groundLine(y: (Double(row) + 0.5) / scale, world: world) else { return }
        for column in 0..<width {
            let x = (Double(column) + 0.5) / scale
            let sourceY = line.originY + x * line.deltaY
            guard sourceY >= -0.5, sourceY < world - 0.5 else { continue }
            var sum = TexelSum()
            sum.add(sampler.bilinear(x: line.originX + x * line.deltaX, y: sourceY))
            sum.write(to: out, at: base + column * 4, samples: 1)
        }
    }

    /// Taps per side for `row`: how many tile pixels one output pixel spans there, rounded up.
    func tapsPerSide(row: Int, scale: Double, world: Double) -> Int {
        guard projection.camera.tilt > 0 else { return 1 }  // tile zoom ≤ view zoom: never minified
        let x = projection.viewport.width / 2, y = (Double(row) + 0.5) / scale
        guard let here = projection.screenToMercator(ScreenPoint(x: x, y: y)),
              let right = projection.screenToMercator(ScreenPoint(x: x + 1 / scale, y: y)),
              let down = projection.screenToMercator(ScreenPoint(x: x, y: y + 1 / scale)) else { return Self.maxTapsPerSide }
        let across = ((right.x - here.x) * (right.x - here.x) + (right.y - here.y) * (right.y - here.y)).squareRoot()
        let along = ((down.x - here.x) * (down.x - here.x) + (down.y - here.y) * (down.y - here.y)).squareRoot()
        let span = max(across, along) * world
        return min(Self.maxTapsPerSide, max(1, Int((span - Self.spanTolerance).rounded(.up))))
    }
}
