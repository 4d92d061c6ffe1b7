import Logging
import TileGeometry
import TilePNG

/// Layers stacked by zIndex with opacity, drawn server-side with "over" in premultiplied
/// alpha (the SDK's `zIndex` and `opacity` on tile layers).
///
/// A member with no tile is transparent; no member with a tile → no tile; a member not
/// available now → the composite is not available now; a member tile that does not decode → an
/// error naming that member's tile (502).
public struct CompositeTileProvider: AsyncVersionedTileProvider {
    /// One layer of the stack.
    public struct Member: Sendable {
        /// Where its tiles come from.
        public var source: TileSource
        /// 0 … 1.
        public var opacity: Double
        /// A name for error messages.
        public var name: String
        /// Its tiles' format (decoded through `TileImageCodec`).
        public var format: TileFormat

        /// A member.
        public init(source: TileSource, opacity: Double = 1, name: String, format: TileFormat = .png) {
            self.source = source
            self.opacity = opacity
            self.name = name
            self.format = format
        }
    }

    /// Members bottom (lowest zIndex) to top.
    public let members: [Member]
    /// Pixel size of the composite's tiles.
    public let tileSize: Int
    private let encoder = PNGEncoder()

    /// A composite of `members`, bottom first.
    public init(members: [Member], tileSize: Int = WebMercator.tileSize, logger: Logger) {
        self.members = members
        self.tileSize = tileSize
    }

    /// The composite, and what it was made from: the members' validators together (a member
    /// read from files, whose change re-makes the composite).
    public func versionedTile(_ request: TileRequest) async throws(TileProviderError) -> (TileResult, (any TileValidator)?) {
        typealias Versioned = Result<(TileResult, (any TileValidator)?), TileProviderError>
        let results = await withTaskGroup(of: (Int, Versioned).self) { group in
            for (index, member) in members.enumerated() {
                let source = member.source
                group.addTask {
                    (index, await Result(catching: { () async throws(TileProviderError) in try await source.versionedTile(request) }))
                }
            }
            var results = [Versioned?](repeating: nil, count: members.count)
            for await (index, result) in group { results[index] = result }
            return results.map { $0! }
        }
        var answers: [TileResult] = []
        for result in results { answers.append(try result.get().0) }
        let validator = CombinedValidator.combining(results.map { try? $0.get().1 })
        return (try draw(answers, for: request), validator)
    }

    /// The members' answers drawn bottom first.
    private func draw(_ results: [TileResult], for request: TileRequest) throws(TileProviderError) -> TileResult {
        var layers: [CompositeLayer] = []
        var newest: Int? = 0
        for (member, result) in zip(members, results) {
            switch result {
            case .unavailable(let retryAfter):
                return .unavailable(retryAfter: retryAfter)
            case .noTile:
                continue
            case .tile(let tile):
                layers.append(CompositeLayer(try image(of: tile, member: member, request: request), opacity: member.opacity))
                newest = tile.lastModified.flatMap { modified in newest.map { max($0, modified) } }
            }
        }
        guard !layers.isEmpty else { return .noTile }
        do {
            let image = try RGBAImage.composite(layers)
            return .tile(Tile(data: try TileImageCodec.encode(image, format: .png, pngEncoder: encoder), lastModified: newest))
        } catch {
            throw .renderFailed(reason: "composite \(request): \(error)")
        }
    }

    /// A member's tile decoded at the composite's size: a 512 px member's is box-downscaled for a
    /// 256 px composite, a 256 px member's upscaled for a 512 px composite.
    private func image(of tile: Tile, member: Member, request: TileRequest) throws(TileProviderError) -> RGBAImage {
        do {
            var image = try TileImageCodec.decode(tile.data, format: member.format)
            if image.width == 2 * tileSize && image.height == 2 * tileSize { image = try image.downscaled2x() }
            if 2 * image.width == tileSize && 2 * image.height == tileSize { image = image.upscaled2x() }
            guard image.width == tileSize, image.height == tileSize else {
                throw TileProviderError.renderFailed(
                    reason: "layer \(member.name) tile \(request) is \(image.width)×\(image.height), not \(tileSize) px")
            }
            return image
        } catch let error as TileProviderError {
            throw error
        } catch {
            throw .undecodable(source: "layer \(member.name) tile \(request)", reason: "\(error)")
        }
    }
}
