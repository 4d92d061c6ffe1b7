/// gzip decompression for tiles stored compressed (vector tiles in MBTiles and PMTiles), for
/// clients that do not accept `Content-Encoding: gzip`. Bounded like the directories' inflate.
public enum Gzip {
    /// The decompressed `data`; throws a message when the data are corrupt, truncated or too large.
    public static func decompress(_ data: [UInt8]) throws(GzipError) -> [UInt8] {
        do {
            return try Inflate.gunzip(data)
        } catch {
            throw GzipError(reason: error.reason)
        }
    }
}

/// Compressed data that cannot be decompressed, and why.
public struct GzipError: Error, Sendable, Equatable, CustomStringConvertible {
    /// zlib's complaint.
    public var reason: String

    public var description: String { reason }
}
