/// Which representation of a tile goes out: the stored bytes (gzip-encoded for a client that
/// takes gzip) or their decompressed copy, each with its own ETag.
struct TileRepresentation {
    var etag: String
    var body: [UInt8]
    /// `Content-Encoding`, when the body goes out encoded.
    var contentEncoding: String?
    /// Whether the choice depends on `Accept-Encoding` (then `Vary: Accept-Encoding`).
    var varies: Bool
}
