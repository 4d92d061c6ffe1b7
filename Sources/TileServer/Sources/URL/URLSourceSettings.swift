import TileProviders

/// `source: {type: url, …}`: the URL-constructor resolver's configuration.
public struct URLSourceSettings: Sendable, Equatable {
    /// The template; a relative `file://` path is already made absolute.
    public var template: String
    /// Values of `{s}`.
    public var subdomains: [String]
    /// Declared `{name}` variables.
    public var variables: [URLTemplateVariable]
    /// Timeouts, concurrency, User-Agent and headers for `http(s)://` templates.
    public var upstream: UpstreamSettings

    /// Settings.
    public init(template: String, subdomains: [String] = [], variables: [URLTemplateVariable] = [],
                upstream: UpstreamSettings = UpstreamSettings()) {
        self.template = template
        self.subdomains = subdomains
        self.variables = variables
        self.upstream = upstream
    }

    /// The parsed template.
    public func parsedTemplate() throws(TileProviderError) -> URLTemplate {
        try URLTemplate(template, subdomains: subdomains, variables: variables)
    }

    /// Whether tiles come from local files rather than an upstream.
    public var isLocal: Bool { template.hasPrefix("file://") }
}
