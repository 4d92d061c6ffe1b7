import TileProviders

extension URLSourceSettings {
    init(node: ConfigNode, baseFolder: String) throws(ConfigurationError) {
        let keys = try node.mapping(allowed: [
            "type", "template", "subdomains", "variables", "timeoutSeconds", "connectTimeoutSeconds", "maxConcurrency",
            "userAgent", "headers", "retryAfterSeconds", "cacheControl",
        ])
        guard let templateNode = keys["template"] else { throw node.error("a url source needs a template") }
        var template = try templateNode.string()
        if template.hasPrefix("file://") {
            let path = String(template.dropFirst("file://".count))
            template = "file://" + ConfigNode.resolve(path, against: baseFolder)
        } else if !template.hasPrefix("http://") && !template.hasPrefix("https://") {
            throw templateNode.error("the template must start with file://, http:// or https://")
        }
        self.init(template: template)
        if let value = keys["subdomains"] { subdomains = try value.strings() }
        for (name, spec) in try keys["variables"]?.freeMapping() ?? [] {
            let fields = try spec.mapping(allowed: ["values", "default"])
            let values = try fields["values"]?.strings()
            guard let defaultValue = try fields["default"]?.string() ?? values?.first else {
                throw spec.error("a variable needs a default or a list of values")
            }
            do {
                variables.append(try URLTemplateVariable(name: name, allowedValues: values, defaultValue: defaultValue))
            } catch {
                throw spec.error(error.description)
            }
        }
        if let value = keys["timeoutSeconds"] { upstream.totalTimeout = try value.double(in: 0.1 ... 600) }
        if let value = keys["connectTimeoutSeconds"] { upstream.connectTimeout = try value.double(in: 0.1 ... 600) }
        if let value = keys["maxConcurrency"] { upstream.maxConcurrency = try value.int(in: 1 ... 10000) }
        if let value = keys["userAgent"] { upstream.userAgent = try value.string() }
        if let value = keys["retryAfterSeconds"] { upstream.retryAfter = try value.int(in: 1 ... 86400) }
        for (name, value) in try keys["headers"]?.freeMapping() ?? [] { upstream.headers[name] = try value.string() }
        if let value = keys["cacheControl"] {
            // SPEC "More sources": `upstream` passes the upstream's Cache-Control/Expires through.
            switch try value.string() {
            case "upstream": upstream.passesCachingThrough = true
            case "layer": upstream.passesCachingThrough = false
            case let other: throw value.error("\"\(other)\" is not one of upstream, layer")
            }
        }
        do {
            if isLocal { _ = try FileTemplateTileProvider(template: try parsedTemplate()) } else { _ = try parsedTemplate() }
        } catch {
            throw templateNode.error(error.description)
        }
    }
}

/// Reads `source: {type: url, template: …, …}`.
struct URLSourceKind: SourceKind {
    let type = "url"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        try URLSourceSettings(node: node, baseFolder: baseFolder)
    }
}
