import TileImagery

/// Reads `source: {type: pmtiles, path: FILE}` and `source: {type: pmtiles, url: http(s)://… | s3://bucket/key}`.
struct PMTilesSourceKind: SourceKind {
    let type = "pmtiles"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        if case .mapping(let mapping) = node.node, mapping["url"] != nil {
            let keys = try node.mapping(allowed: ["type", "url"])
            let url = try keys["url"]!.string()
            guard url.hasPrefix("http://") || url.hasPrefix("https://") || RasterLocation(url: url) != nil else {
                throw keys["url"]!.error("a PMTiles url must be http://…, https://… or s3://bucket/key (for a local file use path:)")
            }
            return RemotePMTilesSource(url: url)
        }
        let keys = try node.mapping(allowed: ["type", "path"])
        return PMTilesSource(path: try node.existingPath(keys["path"], baseFolder: baseFolder, folder: false))
    }
}
