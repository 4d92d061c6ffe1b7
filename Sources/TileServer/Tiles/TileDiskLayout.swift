import TileGeometry

/// Where a tile key lives in a layer's disk-tier folder, and back:
/// `{z}/{x}/{y}[@2x][~name=value…].tile`, variables sorted by name. Only names and values of
/// `[A-Za-z0-9_-]` are stored (the layer's variables are validated so), so a path never holds
/// `/`, `..` or a character a file system treats specially.
enum TileDiskLayout {
    /// The file name suffix of a stored answer.
    static let suffix = ".tile"

    /// Whether `key` can be stored (its variables are safe in a file name).
    static func isStorable(_ key: TileKey) -> Bool {
        key.variables.allSatisfy { isSafe($0.key) && isSafe($0.value) }
    }

    /// The path of `key` relative to the layer's folder.
    static func relativePath(of key: TileKey) -> String {
        var name = "\(key.tile.z)/\(key.tile.x)/\(key.tile.y)"
        if key.scale != 1 { name += "@\(key.scale)x" }
        for (variable, value) in key.variables.sorted(by: { $0.key < $1.key }) { name += "~\(variable)=\(value)" }
        return name + suffix
    }

    /// The key stored at `path` (relative to the folder of `layer`), nil for any other file.
    static func key(atRelativePath path: String, layer: String) -> TileKey? {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[2].hasSuffix(suffix), let z = Int(parts[0]), let x = Int(parts[1]) else { return nil }
        let fields = parts[2].dropLast(suffix.count).split(separator: "~", omittingEmptySubsequences: false)
        let tile = fields[0].split(separator: "@", maxSplits: 1)
        guard let y = Int(tile[0]) else { return nil }
        var scale = 1
        if tile.count == 2 {
            guard tile[1].hasSuffix("x"), let parsed = Int(tile[1].dropLast()) else { return nil }
            scale = parsed
        }
        var variables: [String: String] = [:]
        for field in fields.dropFirst() {
            let pair = field.split(separator: "=", maxSplits: 1)
            guard pair.count == 2 else { return nil }
            variables[String(pair[0])] = String(pair[1])
        }
        let coordinate = TileCoordinate(z: z, x: x, y: y)
        guard coordinate.normalized() == coordinate else { return nil }
        return TileKey(layer: layer, tile: coordinate, scale: scale, variables: variables)
    }

    private static func isSafe(_ text: String) -> Bool {
        !text.isEmpty && text.utf8.allSatisfy { byte in
            (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
                || byte == 0x5F || byte == 0x2D
        }
    }
}
