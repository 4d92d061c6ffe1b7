#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import BodyStore
import Hashing
import TileHTTP
import TileProviders

/// A tile ready to send: its bytes as stored, their content-hash ETag and the source's mtime.
///
/// What never changes lives in one shared, immutable `Content`: a tile is copied through the
/// cache, the pipeline and the answer, and each copy then costs one reference count.
public struct ServedTile: Sendable {
    /// The immutable part: bytes, validators, caching headers and the prepared answer.
    private final class Content: Sendable {
        /// The bytes, when the process holds them (empty when `kept` does).
        let held: [UInt8]
        /// The bytes in the memory cache's body arena, sent with `sendfile` (see `BodyArena`).
        let kept: ArenaBody?
        let identityBody: [UInt8]?
        let upstreamCaching: UpstreamCaching?
        let isGzip: Bool
        /// XXH64 of the bytes as stored; `etag` is made of it.
        let contentHash: UInt64
        let etag: String
        let lastModified: Int?
        let lastModifiedText: String?
        /// Its 200 answer, encoded on first use and shared by every copy of the tile.
        let preparedAnswer = PreparedTileAnswer()

        init(
            held: [UInt8], kept: ArenaBody?, identityBody: [UInt8]?, upstreamCaching: UpstreamCaching?, isGzip: Bool,
            contentHash: UInt64, lastModified: Int?, lastModifiedText: String?
        ) {
            self.held = held
            self.kept = kept
            self.identityBody = identityBody
            self.upstreamCaching = upstreamCaching
            self.isGzip = isGzip
            self.contentHash = contentHash
            etag = ContentHash.etag(hash: contentHash)
            self.lastModified = lastModified
            self.lastModifiedText = lastModifiedText
        }
    }

    private let content: Content

    /// The body as sent: from the memory cache's body arena with `sendfile` when kept there
    /// (see `BodyArena`), else the bytes held.
    var sentBody: HTTPBody {
        guard let kept = content.kept else { return .bytes(content.held) }
        return .file(HTTPFileRegion(descriptor: kept.descriptor, offset: kept.offset, count: kept.count, owner: kept))
    }
    /// The tile as stored (in the layer's format; a vector tile maybe gzip-compressed): held by
    /// the process, or read back from the memory cache's body arena, which can fail.
    public func storedBytes() throws(TileProviderError) -> [UInt8] {
        guard let kept = content.kept else { return content.held }
        // A failed read (a page that cannot come back in a tight memory cgroup) is an error,
        // never other bytes.
        guard let bytes = kept.read() else {
            throw .unreadable(path: "the memory cache's copy of a tile (memory file)", errno: errno)
        }
        return bytes
    }
    /// `storedBytes()` for code that cannot go on without them (tests, examples): it stops the
    /// process if the arena's copy cannot be read. The server's paths use `storedBytes()`.
    public var body: [UInt8] {
        do { return try storedBytes() } catch { preconditionFailure("\(error)") }
    }
    /// The body's length.
    public var byteCount: Int { content.kept?.count ?? content.held.count }
    /// A gzip-compressed `body` decompressed (made once, here, for clients that do not take
    /// gzip); nil when `body` is not gzip, or does not decompress.
    public var identityBody: [UInt8]? { content.identityBody }
    /// The upstream's caching headers, passed on instead of the layer's (`cacheControl: upstream`).
    public var upstreamCaching: UpstreamCaching? { content.upstreamCaching }
    /// Whether `body` is gzip-compressed (a stored vector tile), to be sent as stored with
    /// `Content-Encoding: gzip` or decompressed, as the client accepts (found once, here).
    public var isGzip: Bool { content.isGzip }
    /// Strong ETag (XXH64 of `body`).
    public var etag: String { content.etag }
    /// XXH64 of the bytes as stored (the hash `etag` is made of).
    public var contentHash: UInt64 { content.contentHash }
    /// Seconds since 1970, where the source knows it.
    public var lastModified: Int? { content.lastModified }
    /// `lastModified` as an HTTP-date, formatted once (not per request).
    public var lastModifiedText: String? { content.lastModifiedText }
    /// Seconds since 1970 when the source gave it (a disk copy: when the disk tier stored it);
    /// nil when not known.
    public internal(set) var storedAt: Int?
    /// Set only when served stale (RFC 5861 `stale-if-error`): the source failed and this copy's
    /// freshness had run out; the seconds since it was stored, sent as `Age`.
    public internal(set) var staleAge: Int?
    /// Its `Age` in `layer` (RFC 9111 §5.1): the stale age when served stale; else, for a layer
    /// whose tiles expire, the seconds since the source gave it; else none.
    func age(in layer: Layer) -> Int? {
        if let staleAge { return staleAge }
        guard layer.memoryLifetime != nil, let storedAt else { return nil }
        return max(0, LayerDiskTier.now() - storedAt)
    }

    /// Its 200 answer for `layer` and `cors`, made by `make` on first use (or after a change;
    /// see `PreparedTileAnswer`) and shared by every copy of this value.
    func preparedResponse(layer: Layer, cors: PreparedTileAnswer.CORSKey, make: () -> HTTPResponse) -> HTTPResponse {
        content.preparedAnswer.response(layer: layer, cors: cors, make: make)
    }

    /// The ETag of `identityBody`: the stored one with a suffix (RFC 9110 §8.8.3: each
    /// representation its own strong validator).
    var identityETag: String { String(etag.dropLast()) + "-identity\"" }

    /// A tile; the ETag (and a gzip body's decompressed copy) are made once, here. `contentHash`:
    /// the body's XXH64 when the caller made it already.
    public init(body: [UInt8], contentHash: UInt64? = nil, lastModified: Int?, upstreamCaching: UpstreamCaching? = nil) {
        let isGzip = TileFormat.isGzip(body)
        content = Content(
            held: body, kept: nil, identityBody: isGzip ? try? Gzip.decompress(body) : nil,
            upstreamCaching: upstreamCaching, isGzip: isGzip, contentHash: contentHash ?? ContentHash.xxh64(body),
            lastModified: lastModified, lastModifiedText: lastModified.map { HTTPDate.format(secondsSince1970: $0) })
    }

    private init(kept: ArenaBody, from tile: ServedTile) {
        content = Content(
            held: [], kept: kept, identityBody: tile.identityBody, upstreamCaching: tile.upstreamCaching,
            isGzip: tile.isGzip, contentHash: tile.contentHash, lastModified: tile.lastModified,
            lastModifiedText: tile.lastModifiedText)
        storedAt = tile.storedAt
        staleAge = tile.staleAge
    }

    /// This tile with its bytes moved to the body arena, for the memory cache; itself when
    /// there is no arena here or the bytes are there already.
    func keptInArena() -> ServedTile {
        guard content.kept == nil, let body = BodyArena.store(content.held) else { return self }
        return ServedTile(kept: body, from: self)
    }

    /// Bytes it takes in memory: its body (whole pages in the arena) and a decompressed copy.
    var memoryBytes: Int { (content.kept?.span ?? content.held.count) + (content.identityBody?.count ?? 0) }
}

/// The service's answer for one tile key: what the cache stores (tiles and "no tile") and
/// what it never stores ("not available now").
public enum TileOutcome: Sendable {
    /// The tile.
    case tile(ServedTile)
    /// No tile here (cacheable).
    case noTile
    /// Not available now (never cached).
    case unavailable(retryAfter: Int)

    /// Bytes the outcome costs in the cache (the body plus bookkeeping).
    var cost: Int {
        switch self {
        case .tile(let tile): return tile.memoryBytes + Self.entryOverhead
        case .noTile, .unavailable: return Self.entryOverhead
        }
    }

    /// Bytes of a cache entry beyond its body: the key, the ETag and Last-Modified strings, the
    /// prepared 200 answer (headers and their encoded form), the LRU node and table slot, and
    /// the heap's own overhead. Measured: with 256 here, a 64 MB cache of small (debug @2x)
    /// tiles grew RSS by 83 MB; the bound on cached bytes must bound memory, so count it all.
    static let entryOverhead = 2048
}

/// A tile that could not be produced: which one, and the source's error.
public struct TileFailure: Error, Sendable, CustomStringConvertible {
    /// The tile asked for.
    public var key: TileKey
    /// What went wrong.
    public var error: TileProviderError

    public var description: String { "\(key): \(error)" }
}
