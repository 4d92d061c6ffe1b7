import Foundation
import TileGeometry
import TileProviders

/// `source: {type: directory, path, template}`: files under a folder located by a path template.
public struct DirectorySource: ConfiguredSource, Equatable {
    /// The folder, absolute.
    public var path: String
    /// Where a tile's file is under `path` ("{z}/{x}/{y}.png").
    public var template: String
    /// Whether the template is the default one (then the layer's `format` picks its extension).
    var templateIsDefault = false

    /// Files under `path` located by `template`.
    public init(path: String, template: String) {
        self.path = path
        self.template = template
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.path == rhs.path && lhs.template == rhs.template
    }

    public var summary: String { "directory" }

    public func adopting(format: TileFormat) -> any ConfiguredSource {
        guard templateIsDefault else { return self }
        var adopted = self
        adopted.template = "{z}/{x}/{y}." + format.fileExtension
        return adopted
    }

    /// The folder is there and readable.
    public func readinessProblem() -> String? { LayerReadiness.problem(at: path, folder: true) }

    public func build(in context: SourceBuildContext) throws -> BuiltSource {
        var built = BuiltSource(source: .sync(DirectoryTileProvider(root: path, template: try DirectoryPathTemplate(template))))
        built.format = TileFormat(pathExtensionOf: template).map { SourceFormat($0, from: "the path template \"\(template)\"") }
        if template.hasPrefix("{z}/") { built.metadata.zoomRange = Self.zoomFolders(in: path) }
        return built
    }

    /// The range of numeric sub-folder names (zoom levels) of a tile folder.
    static func zoomFolders(in path: String) -> ClosedRange<Int>? {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        let zooms = names.compactMap { name -> Int? in
            guard let zoom = Int(name), zoom >= 0, zoom <= TileCoordinate.maxZoom else { return nil }
            return zoom
        }
        guard let low = zooms.min(), let high = zooms.max() else { return nil }
        return low ... high
    }
}

extension SourceSettings {
    /// Files under `path` located by `template`.
    public static func directory(path: String, template: String) -> SourceSettings {
        SourceSettings(DirectorySource(path: path, template: template))
    }
}
