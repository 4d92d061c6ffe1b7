import Logging
import TileGeometry
import TileProviders
import TilePNG

/// Makes derived tiles from native ones fetched through the pipeline (so they are cached and
/// coalesced too): `@2x` of a 256 px source from its four children, and the 256 px tile of a
/// 512 px source by a 2×2 box downscale. A native tile is never re-encoded; these are.
struct TileRenderer {
    let pipeline: TilePipeline
    let logger: Logger
    /// The layer whose tiles are derived (its format decodes and encodes them: `TileImageCodec`).
    let layer: Layer

    /// The encoder for derived tiles (see `PNGEncoder`'s defaults for the measured trade-off).
    static let encoder = PNGEncoder()

    /// The derived tile, and what it was made from (its sources' validators together).
    func derived(_ key: TileKey) async -> TileFill {
        var validators: [(any TileValidator)?] = []
        let result = key.scale == 2 ? await retina(key, validators: &validators) : await downscaled(key, validators: &validators)
        return TileFill(result: result, validator: CombinedValidator.combining(validators))
    }

    /// `@2x` for a 256 px source: the four tiles of zoom z+1 side by side (true detail); a
    /// missing child's quadrant is the parent's quadrant upscaled; at maxZoom, the parent upscaled.
    private func retina(_ key: TileKey, validators: inout [(any TileValidator)?]) async -> Result<TileOutcome, TileFailure> {
        let parentKey = TileKey(layer: key.layer, tile: key.tile, scale: 1, variables: key.variables)
        let childKeys = key.tile.z < layer.maxZoom
            ? key.tile.children.map { TileKey(layer: key.layer, tile: $0, scale: 1, variables: key.variables) } : []
        var children: [TileOutcome] = []
        for fill in await fetchAll(childKeys) {
            validators.append(fill.validator)
            switch fill.result {
            case .failure(let failure): return .failure(failure)
            case .success(.unavailable(let retry)): return .success(.unavailable(retryAfter: retry))
            case .success(let outcome): children.append(outcome)
            }
        }
        let present = children.compactMap(\.servedTile)
        var parent: ServedTile?
        if present.count < 4 {
            let fill = await pipeline.outcome(for: parentKey, layer: layer)
            validators.append(fill.validator)
            switch fill.result {
            case .failure(let failure): return .failure(failure)
            case .success(.unavailable(let retry)): return .success(.unavailable(retryAfter: retry))
            case .success(let outcome): parent = outcome.servedTile
            }
            if present.isEmpty && parent == nil { return .success(.noTile) }
        }
        do {
            let parentImage = try parent.map { tile throws(TileFailure) in try decode(tile, from: parentKey) }
            var quadrants: [RGBAImage] = []
            for (index, quadrant) in [RGBAImage.Quadrant.northWest, .northEast, .southWest, .southEast].enumerated() {
                if index < children.count, let child = children[index].servedTile {
                    quadrants.append(try decode(child, from: childKeys[index]))
                } else if let parentImage {
                    quadrants.append(try render(key) { () throws(PNGError) in try parentImage.upscaledQuadrant(quadrant) })
                } else {
                    quadrants.append(RGBAImage(width: WebMercator.tileSize, height: WebMercator.tileSize))
                }
            }
            let image = try render(key) { () throws(PNGError) in
                try RGBAImage.mosaic2x2(nw: quadrants[0], ne: quadrants[1], sw: quadrants[2], se: quadrants[3])
            }
            return .success(.tile(try encode(image, key, sources: present + (parent.map { [$0] } ?? []))))
        } catch {
            return .failure(error)
        }
    }

    /// The 256 px tile of a 512 px source: a 2×2 box downscale of its `@2x` (native) tile.
    private func downscaled(_ key: TileKey, validators: inout [(any TileValidator)?]) async -> Result<TileOutcome, TileFailure> {
        let sourceKey = TileKey(layer: key.layer, tile: key.tile, scale: 2, variables: key.variables)
        let fill = await pipeline.outcome(for: sourceKey, layer: layer)
        validators.append(fill.validator)
        switch fill.result {
        case .failure(let failure):
            return .failure(failure)
        case .success(.tile(let tile)):
            do {
                let image = try decode(tile, from: sourceKey)
                let small = try render(key) { () throws(PNGError) in try image.downscaled2x() }
                return .success(.tile(try encode(small, key, sources: [tile])))
            } catch {
                return .failure(error)
            }
        case .success(let other):
            return .success(other)
        }
    }

    private func fetchAll(_ keys: [TileKey]) async -> [TileFill] {
        await keys.concurrentMap { [pipeline, layer] key in await pipeline.outcome(for: key, layer: layer) }
    }

    private func decode(_ tile: ServedTile, from key: TileKey) throws(TileFailure) -> RGBAImage {
        let format = layer.format
        do {
            return try TileImageCodec.decode(try tile.storedBytes(), format: format)
        } catch {
            throw TileFailure(key: key, error: .undecodable(source: "tile \(key)", reason: "\(error)"))
        }
    }

    private func render(_ key: TileKey, _ body: () throws(PNGError) -> RGBAImage) throws(TileFailure) -> RGBAImage {
        do {
            return try body()
        } catch {
            throw TileFailure(key: key, error: .renderFailed(reason: "\(error)"))
        }
    }

    /// Encodes a derived tile; its Last-Modified is the newest of its sources' (when all know it).
    /// It is as old as its oldest source (`storedAt`), so it expires with it and its `Age` counts
    /// from that source's fetch.
    private func encode(_ image: RGBAImage, _ key: TileKey, sources: [ServedTile]) throws(TileFailure) -> ServedTile {
        do {
            let modified = sources.allSatisfy { $0.lastModified != nil } ? sources.compactMap(\.lastModified).max() : nil
            var tile = ServedTile(body: try TileImageCodec.encode(image, format: layer.format, pngEncoder: Self.encoder,
                                                                    quality: layer.settings.quality),
                                  lastModified: modified)
            tile.storedAt = sources.compactMap(\.storedAt).min()
            return tile
        } catch {
            throw TileFailure(key: key, error: .renderFailed(reason: "encoding: \(error)"))
        }
    }
}

extension TileOutcome {
    /// The tile, if this outcome is one.
    var servedTile: ServedTile? {
        if case .tile(let tile) = self { return tile }
        return nil
    }
}
