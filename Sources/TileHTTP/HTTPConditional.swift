/// Evaluation of `If-None-Match` and `If-Modified-Since` for GET and HEAD (RFC 9110 §13.2.2).
public enum HTTPConditional {
    /// Whether the request asks for a 304 when its copy is current (has If-None-Match or
    /// If-Modified-Since).
    ///
    /// Asked of every tile answer made: the fields are read in place, and a name is compared
    /// only when it is as long as one of the two (most of a request's names are not).
    public static func isConditional(_ headers: HTTPHeaders) -> Bool {
        headers.fields.contains { field in
            let length = field.name.canonical.utf8.count
            return (length == noneMatchLength && field.name == .ifNoneMatch)
                || (length == modifiedSinceLength && field.name == .ifModifiedSince)
        }
    }

    private static let noneMatchLength = HTTPHeaderName.ifNoneMatch.canonical.utf8.count
    private static let modifiedSinceLength = HTTPHeaderName.ifModifiedSince.canonical.utf8.count

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
