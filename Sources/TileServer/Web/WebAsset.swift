import Hashing
import TileHTTP

/// One file of the front page, held in memory: its bytes and the headers they need.
struct WebAsset: Sendable, Equatable {
    /// The file's bytes, served as they are.
    let body: [UInt8]
    /// `Content-Type`, from the file's extension.
    let contentType: String
    /// Strong ETag of `body` (stable across restarts).
    let etag: String
    /// The file's modification time, seconds since 1970, when known.
    let lastModified: Int?

    /// An asset over `body`.
    init(body: [UInt8], contentType: String, lastModified: Int?) {
        self.body = body
        self.contentType = contentType
        self.etag = ContentHash.etag(of: body)
        self.lastModified = lastModified
    }

    /// The `Content-Type` of a file name, or nil for a kind the front page never serves.
    static func contentType(forFileName name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return nil }
        switch name[name.index(after: dot)...].lowercased() {
        case "js": return "text/javascript; charset=utf-8"
        case "css": return "text/css; charset=utf-8"
        case "png": return "image/png"
        default: return nil
        }
    }
}
