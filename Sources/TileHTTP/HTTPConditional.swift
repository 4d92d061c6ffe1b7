/// Evaluation of `If-None-Match` and `If-Modified-Since` for GET and HEAD (RFC 9110 §13.2.2).
public enum HTTPConditional {
    /// Whether the request asks for a 304 when its copy is current (has If-None-Match or
    /// If-Modified-Since).
    ///
    /// Asked of every tile answer made: two bits of the fields' names (`HTTPHeaders.contains`).
    public static func isConditional(_ headers: HTTPHeaders) -> Bool {
        headers.contains(.ifNoneMatch) || headers.contains(.ifModifiedSince)
    }

    /// Whether the client's copy is current, so the answer is 304.
    /// `If-None-Match` wins when present; `If-Modified-Since` counts only without it.
    public static func isNotModified(_ headers: HTTPHeaders, etag: String, lastModified: Int?) -> Bool {
        let noneMatch = headers.values(.ifNoneMatch)
        if !noneMatch.isEmpty {
            return noneMatch.contains { matches(list: $0, etag: etag) }
        }
        if let lastModified, let since = headers[.ifModifiedSince], let date = HTTPDate.parse(since) {
            return lastModified <= date
        }
        return false
    }

    /// Weak comparison of `etag` against a list of entity tags or "*" (RFC 9110 §8.8.3.2).
    static func matches(list: String, etag: String) -> Bool {
        let opaque = strip(Substring(etag))
        for item in list.split(separator: ",") {
            let candidate = item.trimmingSpaces
            if candidate == "*" { return true }
            if strip(candidate) == opaque { return true }
        }
        return false
    }

    private static func strip(_ tag: Substring) -> Substring {
        tag.hasPrefix("W/") ? tag.dropFirst(2) : tag
    }
}
