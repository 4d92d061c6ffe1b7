import TileGeometry

/// Tiles stored as files under a folder, located by a path template ("{z}/{x}/{y}.png").
///
/// The path is made only from the integers of the tile coordinate and the fixed template,
/// so no request can name a file outside `root`.
public struct DirectoryTileProvider: FileTileProvider {
    /// The folder (absolute path, no trailing slash).
    public let root: String
    /// The path template below `root`.
    public let template: DirectoryPathTemplate
    public let opensWithoutWaiting: Bool
    /// `root` and a slash, which every path starts with.
    private let prefix: String

    /// A provider over `root` with `template`.
    public init(root: String, template: DirectoryPathTemplate = .default) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        prefix = self.root + "/"
        self.template = template
        opensWithoutWaiting = FileReader.isLocalFilesystem(self.root)
    }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        try tile(for: TileRequest(x: x, y: y, zoom: zoom))
    }

    public func path(for request: TileRequest) -> String {
        template.path(for: request, after: prefix)
    }
}
