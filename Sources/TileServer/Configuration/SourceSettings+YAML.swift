import Foundation
import TileProviders

extension SourceSettings {
    /// Source types this build knows, for error messages.
    static let knownTypes = ["directory", "mbtiles", "pmtiles", "url", "debug", "composite"]

    init(node: ConfigNode, baseFolder: String, registry: SourceRegistry) throws(ConfigurationError) {
        guard case .mapping(let mapping) = node.node, let typeNode = mapping["type"], let type = typeNode.string else {
            throw node.error("a source needs a type (\((Self.knownTypes + registry.types).joined(separator: ", ")))")
        }
        switch type {
        case "directory":
            let keys = try node.mapping(allowed: ["type", "path", "template"])
            let path = try Self.existingPath(keys["path"], in: node, baseFolder: baseFolder, folder: true)
            let template = try keys["template"]?.string() ?? "{z}/{x}/{y}.png"
            do {
                _ = try DirectoryPathTemplate(template)
            } catch {
                throw (keys["template"] ?? node).error(error.description)
            }
            self = .directory(path: path, template: template)
        case "pmtiles" where mapping["url"] != nil:
            let keys = try node.mapping(allowed: ["type", "url"])
            let url = try keys["url"]!.string()
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw keys["url"]!.error("a PMTiles url must start with http:// or https:// (for a local file use path:)")
            }
            self = .remotePMTiles(url: url)
        case "mbtiles", "pmtiles":
            let keys = try node.mapping(allowed: ["type", "path"])
            let path = try Self.existingPath(keys["path"], in: node, baseFolder: baseFolder, folder: false)
            self = type == "mbtiles" ? .mbtiles(path: path) : .pmtiles(path: path)
        case "url":
            self = .url(try URLSourceSettings(node: node, baseFolder: baseFolder))
        case "debug":
            _ = try node.mapping(allowed: ["type"])
            self = .debug
        case "composite":
            let keys = try node.mapping(allowed: ["type", "layers"])
            guard let list = keys["layers"] else { throw node.error("a composite source needs layers") }
            var members: [CompositeMember] = []
            for item in try list.sequence() {
                let fields = try item.mapping(allowed: ["layer", "zIndex", "opacity"])
                guard let name = fields["layer"] else { throw item.error("a composite member needs a layer") }
                members.append(CompositeMember(
                    layer: try name.string(), zIndex: try fields["zIndex"]?.int(in: -1_000_000 ... 1_000_000) ?? members.count,
                    opacity: try fields["opacity"]?.double(in: 0 ... 1) ?? 1))
            }
            guard !members.isEmpty else { throw list.error("a composite source needs at least one layer") }
            self = .composite(members)
        default:
            guard registry.types.contains(type) else {
                throw node.error("unknown source type \"\(type)\" (known: \((Self.knownTypes + registry.types).joined(separator: ", ")))")
            }
            var options: [String: String] = [:]
            for (key, value) in try node.freeMapping() where key != "type" { options[key] = try value.string() }
            self = .custom(type: type, options: options)
        }
    }

    private static func existingPath(_ node: ConfigNode?, in parent: ConfigNode, baseFolder: String, folder: Bool) throws(ConfigurationError) -> String {
        guard let node else { throw parent.error("this source needs a path") }
        let path = resolve(try node.string(), against: baseFolder)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue == folder else {
            throw node.error("\(folder ? "folder" : "file") \(path) does not exist")
        }
        return path
    }

    /// `path` made absolute relative to the configuration file's folder.
    static func resolve(_ path: String, against folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : (folder.isEmpty ? path : folder + "/" + path)
        let absolute = joined.hasPrefix("/") ? joined : FileManager.default.currentDirectoryPath + "/" + joined
        return (absolute as NSString).standardizingPath
    }
}

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
            template = "file://" + SourceSettings.resolve(path, against: baseFolder)
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
