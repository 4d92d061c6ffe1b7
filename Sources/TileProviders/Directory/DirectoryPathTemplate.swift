import TileGeometry

/// A relative file path with the tile placeholders of `URLTemplate` (`{z}`, `{x}`, `{y}`, `{-y}`,
/// `{q}`), parsed once and checked so that it cannot climb out of its folder.
public struct DirectoryPathTemplate: Sendable, Equatable {
    /// The parsed placeholders (the same parser as URL templates; no subdomains or variables).
    let template: URLTemplate

    /// `{z}/{x}/{y}.png`, the XYZ layout of gdal2tiles and most tile folders.
    public static let `default` = try! DirectoryPathTemplate("{z}/{x}/{y}.png")

    /// Parses `text`; it must locate a tile and stay inside its folder.
    public init(_ text: String) throws(TileProviderError) {
        if text.hasPrefix("/") || text.split(separator: "/").contains("..") {
            throw .invalidConfiguration("path template \"\(text)\" must be relative and must not contain \"..\"")
        }
        template = try URLTemplate(text, noun: "path template")
    }

    /// The relative path of `tile`: made only of the template's text and the tile's integers.
    public func path(for tile: TileCoordinate) -> String {
        template.url(for: TileRequest(tile: tile))
    }

    /// `prefix` (a folder and a slash) and the relative path of `request`'s tile, in one string.
    func path(for request: TileRequest, after prefix: String) -> String {
        template.string(for: request, after: prefix)
    }
}
