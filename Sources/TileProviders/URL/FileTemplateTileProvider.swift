/// Tiles read from local files named by a `file://` URL template (the floor-plan example:
/// `file://tiles/floorplans/L{floor}_{z}_{x}_{y}.png` with `?floor=2`).
///
/// Request-derived values are integers or declared variable values made of `[A-Za-z0-9_-]`, and
/// the template may not contain "..", so no request can form a path outside the template's folder.
public struct FileTemplateTileProvider: FileTileProvider {
    /// The template; its path is absolute.
    public let template: URLTemplate
    public let opensWithoutWaiting: Bool

    /// A provider over a `file://` template whose path is absolute (resolve relative ones first).
    public init(template: URLTemplate) throws(TileProviderError) {
        guard template.text.hasPrefix("file:///") else {
            throw .invalidConfiguration("file template \"\(template.text)\" must be file:// with an absolute path")
        }
        guard !template.text.split(separator: "/").contains("..") else {
            throw .invalidConfiguration("file template \"\(template.text)\" must not contain \"..\"")
        }
        self.template = template
        let path = String(template.text.dropFirst("file://".count))
        opensWithoutWaiting = FileReader.isLocalFilesystem(String(path[..<(path.lastIndex(of: "/") ?? path.endIndex)]))
    }

    public func tileFor(x: Int, y: Int, zoom: Int) throws(TileProviderError) -> TileResult {
        try tile(for: TileRequest(x: x, y: y, zoom: zoom))
    }

    public func path(for request: TileRequest) -> String {
        String(template.url(for: request).dropFirst("file://".count))
    }
}
