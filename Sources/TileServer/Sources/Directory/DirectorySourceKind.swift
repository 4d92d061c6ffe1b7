import TileProviders

/// Reads `source: {type: directory, path: FOLDER, template: "{z}/{x}/{y}.png"}`.
struct DirectorySourceKind: SourceKind {
    let type = "directory"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        let keys = try node.mapping(allowed: ["type", "path", "template"])
        let path = try node.existingPath(keys["path"], baseFolder: baseFolder, folder: true)
        let template = try keys["template"]?.string() ?? "{z}/{x}/{y}.png"
        do {
            _ = try DirectoryPathTemplate(template)
        } catch {
            throw (keys["template"] ?? node).error(error.description)
        }
        var source = DirectorySource(path: path, template: template)
        source.templateIsDefault = keys["template"] == nil
        return source
    }
}
