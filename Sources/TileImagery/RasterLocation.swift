/// Where a raster or an object lies: a local file, an `http(s)://` URL or an `s3://bucket/key`
/// object, and the name GDAL opens it by (`/vsicurl/…`, `/vsis3/…`).
public enum RasterLocation: Sendable, Hashable, CustomStringConvertible {
    /// A local file (absolute).
    case file(String)
    /// An `http://` or `https://` URL, read with range requests.
    case http(String)
    /// `s3://bucket/key`, read with signed range requests.
    case s3(bucket: String, key: String)

    /// The location of `url` (`http(s)://…` or `s3://bucket/key`); nil for anything else.
    public init?(url: String) {
        if url.hasPrefix("http://") || url.hasPrefix("https://") {
            self = .http(url)
        } else if url.hasPrefix("s3://") {
            let rest = url.dropFirst("s3://".count)
            guard let slash = rest.firstIndex(of: "/"), slash != rest.startIndex, rest.index(after: slash) != rest.endIndex else { return nil }
            self = .s3(bucket: String(rest[..<slash]), key: String(rest[rest.index(after: slash)...]))
        } else {
            return nil
        }
    }

    /// The name GDAL opens.
    var gdalName: String {
        switch self {
        case .file(let path): return path
        case .http(let url): return "/vsicurl/" + url
        case .s3(let bucket, let key): return "/vsis3/\(bucket)/\(key)"
        }
    }

    /// Whether it is read over a network.
    public var isRemote: Bool {
        if case .file = self { return false }
        return true
    }

    /// The path or URL as configured (no credentials are ever part of it).
    public var description: String {
        switch self {
        case .file(let path): return path
        case .http(let url): return url
        case .s3(let bucket, let key): return "s3://\(bucket)/\(key)"
        }
    }
}
