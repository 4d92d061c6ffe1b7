// TileProviders: where tiles come from. The Maps SDK's tile-layer model as Swift protocols:
// a provider answers a tile, "no tile here" (permanent) or "not available now" (transient).

import TileGeometry

/// A tile's bytes as the source holds them, with what the source knows about them.
public struct Tile: Sendable, Equatable {
    /// The encoded tile (in the layer's `TileFormat`), byte-for-byte as stored.
    public var data: [UInt8]
    /// Modification time in seconds since 1970, where the source knows it.
    public var lastModified: Int?
    /// The upstream's own caching headers (`Cache-Control`, `Expires`), kept only by a `url`
    /// source with `cacheControl: upstream`, to be passed on instead of the layer's `maxAge`.
    public var upstreamCaching: UpstreamCaching?

    /// A tile.
    public init(data: [UInt8], lastModified: Int? = nil, upstreamCaching: UpstreamCaching? = nil) {
        self.data = data
        self.lastModified = lastModified
        self.upstreamCaching = upstreamCaching
    }
}

/// A provider's answer for one tile.
public enum TileResult: Sendable, Equatable {
    /// The tile.
    case tile(Tile)
    /// There is no tile here, now or later (the SDK's `kGMSTileLayerNoTile`): cacheable.
    case noTile
    /// Not available now, maybe later (the SDK's `nil`): never cached; retry after the seconds given.
    case unavailable(retryAfter: Int)
}

/// A source that answers synchronously (the SDK's `GMSSyncTileLayer.tileFor(x:y:zoom:)`):
/// local files, a database, generated images. The server calls it on a thread of its bounded
/// worker pool, never on an event loop or the Swift-concurrency pool, so it may block on local
/// I/O (a call that hangs holds one worker, and delays no other request).
public protocol SyncTileProvider: Sendable {
    /// The tile at column `x`, row `y` (XYZ, from the north) of zoom `zoom`.
    func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult

    /// The tile for `request`, variables included. The default calls `tileFor(x:y:zoom:)`.
    func tile(for request: TileRequest) throws(TileProviderError) -> TileResult

    /// Whether it draws tiles of any `TileRequest.scale` itself (imagery read at the scale's
    /// resolution), so `@2x` is never derived from children. The default: no.
    var rendersEveryScale: Bool { get }
}

extension SyncTileProvider {
    public var rendersEveryScale: Bool { false }

    public func tile(for request: TileRequest) throws(TileProviderError) -> TileResult {
        try tileFor(x: request.tile.x, y: request.tile.y, zoom: request.tile.z)
    }
}

/// A source that answers asynchronously (the SDK's `GMSTileLayer.requestTileFor(x:y:zoom:receiver:)`,
/// with `async` in place of the receiver): upstream servers, composites.
public protocol AsyncTileProvider: Sendable {
    /// The tile for `request` (its coordinate and the layer's variables from the query string).
    func requestTile(_ request: TileRequest) async throws(TileProviderError) -> TileResult
}
