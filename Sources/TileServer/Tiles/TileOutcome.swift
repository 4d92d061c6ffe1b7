import TileHTTP
import TileProviders

/// A tile ready to send: its bytes as stored, their content-hash ETag and the source's mtime.
public struct ServedTile: Sendable {
    /// The bytes, when the process holds them (empty when `kept` does).
    private let held: [UInt8]
    /// The bytes in the memory cache's body arena, sent with `sendfile` (see `TileBodyArena`).
    let kept: TileBody?
    /// The tile as stored (in the layer's format; a vector tile maybe gzip-compressed).
    public var body: [UInt8] { kept?.bytes ?? held }
    /// The body's length.
    public var byteCount: Int { kept?.count ?? held.count }
    /// A gzip-compressed `body` decompressed (made once, here, for clients that do not take
    /// gzip); nil when `body` is not gzip, or does not decompress (`isCorruptGzip`).
    public let identityBody: [UInt8]?
    /// The upstream's caching headers, passed on instead of the layer's (`cacheControl: upstream`).
    public let upstreamCaching: UpstreamCaching?
    /// Whether `body` is gzip-compressed (a stored vector tile), to be sent as stored with
    /// `Content-Encoding: gzip` or decompressed, as the client accepts (found once, here).
    public let isGzip: Bool
    /// Strong ETag (XXH64 of `body`).
    public let etag: String
    /// Seconds since 1970, where the source knows it.
    public let lastModified: Int?
    /// `lastModified` as an HTTP-date, formatted once (not per request).
    public let lastModifiedText: String?
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

    /// Its 200 answer, encoded on first use and shared by every copy of this value.
    let preparedAnswer = PreparedTileAnswer()

    /// Whether `body` looks gzip-compressed but does not decompress.
    var isCorruptGzip: Bool { isGzip && identityBody == nil }

    /// The ETag of `identityBody`: the stored one with a suffix (RFC 9110 §8.8.3: each
    /// representation its own strong validator).
    var identityETag: String { String(etag.dropLast()) + "-identity\"" }

    /// A tile; the ETag (and a gzip body's decompressed copy) are made once, here.
    public init(body: [UInt8], lastModified: Int?, upstreamCaching: UpstreamCaching? = nil) {
        self.held = body
        self.kept = nil
        self.isGzip = TileFormat.isGzip(body)
        self.identityBody = isGzip ? try? Gzip.decompress(body) : nil
        self.upstreamCaching = upstreamCaching
        self.etag = ContentHash.etag(of: body)
        self.lastModified = lastModified
        self.lastModifiedText = lastModified.map { HTTPDate.format(secondsSince1970: $0) }
    }

    private init(kept: TileBody, from tile: ServedTile) {
        self.held = []
        self.kept = kept
        self.isGzip = tile.isGzip
        self.identityBody = tile.identityBody
        self.upstreamCaching = tile.upstreamCaching
        self.etag = tile.etag
        self.lastModified = tile.lastModified
        self.lastModifiedText = tile.lastModifiedText
        self.storedAt = tile.storedAt
        self.staleAge = tile.staleAge
    }

    /// This tile with its bytes moved to the body arena, for the memory cache; itself when
    /// there is no arena here or the bytes are there already.
    func keptInArena() -> ServedTile {
        guard kept == nil, let body = TileBodyArena.store(held) else { return self }
        return ServedTile(kept: body, from: self)
    }

    /// Bytes it takes in memory: its body (whole pages in the arena) and a decompressed copy.
    var memoryBytes: Int { (kept?.span ?? held.count) + (identityBody?.count ?? 0) }
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
