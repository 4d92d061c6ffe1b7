/// An upstream's caching headers, passed through to clients by `cacheControl: upstream` (for
/// providers whose terms require their own freshness rules). Either may be absent.
public struct UpstreamCaching: Sendable, Equatable, Hashable {
    /// The upstream's `Cache-Control` value.
    public var cacheControl: String?
    /// The upstream's `Expires` value (an HTTP-date, passed as sent).
    public var expires: String?

    /// Headers as the upstream sent them.
    public init(cacheControl: String?, expires: String?) {
        self.cacheControl = cacheControl
        self.expires = expires
    }
}
