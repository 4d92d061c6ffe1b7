import TileImagery

/// Reads `source: {type: geotiff, path: FILE | url: https://… | s3://bucket/key, bands: [1, 2, 3],
/// rescale: [min, max], resampling: bilinear, nodata: 0}`.
struct GeoTIFFSourceKind: SourceKind {
    let type = "geotiff"

    func settings(from node: ConfigNode, baseFolder: String) throws(ConfigurationError) -> any ConfiguredSource {
        let keys = try node.mapping(allowed: ["type", "path", "url", "bands", "rescale", "resampling", "nodata"])
        let location: RasterLocation
        switch (keys["path"], keys["url"]) {
        case (.some, .some):
            throw node.error("give either path (a local file) or url (https://… or s3://bucket/key), not both")
        case (_, .some(let value)):
            guard let remote = RasterLocation(url: try value.string()) else {
                throw value.error("a geotiff url must be http://…, https://… or s3://bucket/key")
            }
            location = remote
        default:
            location = .file(try node.existingPath(keys["path"], baseFolder: baseFolder, folder: false))
        }
        var options = GeoTIFFOptions()
        if let value = keys["bands"] {
            let bands = try value.sequence().map { item throws(ConfigurationError) in try item.int(in: 1 ... 65535) }
            guard bands.count == 1 || bands.count == 3 else {
                throw value.error("list one band (grey) or three (red, green, blue), as [1, 2, 3]")
            }
            options.bands = bands
        }
        if let value = keys["rescale"] {
            let range = try value.doubles(count: 2)
            guard range[0] < range[1] else { throw value.error("rescale is [min, max] with min < max") }
            options.rescale = range[0] ... range[1]
        }
        if let value = keys["resampling"] {
            let name = try value.string()
            guard let resampling = GeoTIFFOptions.Resampling(rawValue: name) else {
                let known = GeoTIFFOptions.Resampling.allCases.map(\.rawValue).joined(separator: ", ")
                throw value.error("unknown resampling \"\(name)\" (one of \(known))")
            }
            options.resampling = resampling
        }
        if let value = keys["nodata"] { options.nodata = try value.double(in: -Double.greatestFiniteMagnitude ... Double.greatestFiniteMagnitude) }
        return GeoTIFFSource(location: location, options: options)
    }
}
