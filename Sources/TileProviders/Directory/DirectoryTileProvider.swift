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
    /// Whether `root` is on a local filesystem, where opening a file whose path is cached never
    /// waits (`tileFileWithoutWaiting`); on NFS, CIFS or FUSE an open may ask a server.
    public let opensWithoutWaiting: Bool

    /// A provider over `root` with `template`.
    public init(root: String, template: DirectoryPathTemplate = .default) {
        self.root = root.hasSuffix("/") && root.count > 1 ? String(root.dropLast()) : root
        self.template = template
        opensWithoutWaiting = FileReader.isLocalFilesystem(self.root)
    }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        switch try FileReader.read(path(z: zoom, x: x, y: y)) {
        case .contents(let data, let modified): return .tile(Tile(data: data, lastModified: modified))
        case .missing: return .noTile
        }
    }

    public func tileFile(for request: TileRequest) throws(TileProviderError) -> TileFile? {
        try FileReader.open(path(z: request.tile.z, x: request.tile.x, y: request.tile.y))
    }

    /// Opened only from the kernel's caches (`openat2` with `RESOLVE_CACHED`) and only on a
    /// local filesystem: an event loop serves a hot pyramid's files without a worker, and a
    /// cold path, or a network or FUSE mount, still goes to one.
    public func tileFileWithoutWaiting(for request: TileRequest) -> TileFile? {
        guard opensWithoutWaiting else { return nil }
        return FileReader.openWithoutWaiting(path(z: request.tile.z, x: request.tile.x, y: request.tile.y))
    }

    private func path(z: Int, x: Int, y: Int) -> String {
        root + "/" + template.path(for: TileCoordinate(z: z, x: x, y: y))
    }
}
