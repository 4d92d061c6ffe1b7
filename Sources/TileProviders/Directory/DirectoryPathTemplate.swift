import TileGeometry

/// A relative file path with `{z}`, `{x}`, `{y}` and `{-y}` (TMS row) placeholders,
/// parsed once and checked so that it cannot climb out of its folder.
public struct DirectoryPathTemplate: Sendable, Equatable {
    enum Part: Sendable, Equatable {
        case literal(String)
        case z, x, y, tmsY
    }

    let parts: [Part]

    /// `{z}/{x}/{y}.png`, the XYZ layout of gdal2tiles and most tile folders.
    public static let `default` = try! DirectoryPathTemplate("{z}/{x}/{y}.png")

    /// Parses `text`; it must place `{z}`, `{x}` and `{y}` (or `{-y}`) and stay inside its folder.
    public init(_ text: String) throws(TileProviderError) {
        var parts: [Part] = []
        var rest = Substring(text)
        while let open = rest.firstIndex(of: "{") {
            if open > rest.startIndex { parts.append(.literal(String(rest[..<open]))) }
            guard let close = rest[open...].firstIndex(of: "}") else {
                throw .invalidConfiguration("path template \"\(text)\" has an unclosed \"{\"")
            }
            switch rest[rest.index(after: open) ..< close] {
            case "z": parts.append(.z)
            case "x": parts.append(.x)
            case "y": parts.append(.y)
            case "-y": parts.append(.tmsY)
            case let other:
                throw .invalidConfiguration(
                    "path template \"\(text)\" has an unknown placeholder {\(other)} (use {z}, {x}, {y}, {-y})")
            }
            rest = rest[rest.index(after: close)...]
        }
        if !rest.isEmpty { parts.append(.literal(String(rest))) }
        guard parts.contains(.z), parts.contains(.x), parts.contains(.y) || parts.contains(.tmsY) else {
            throw .invalidConfiguration("path template \"\(text)\" must contain {z}, {x} and {y} (or {-y})")
        }
        let literalText = parts.compactMap { if case .literal(let s) = $0 { s } else { nil } }.joined(separator: "/")
        if text.hasPrefix("/") || literalText.split(separator: "/").contains("..") {
            throw .invalidConfiguration("path template \"\(text)\" must be relative and must not contain \"..\"")
        }
        self.parts = parts
    }

    /// The relative path of `tile`.
    public func path(for tile: TileCoordinate) -> String {
        var path = ""
        for part in parts {
            switch part {
            case .literal(let text): path += text
            case .z: path += String(tile.z)
            case .x: path += String(tile.x)
            case .y: path += String(tile.y)
            case .tmsY: path += String(tile.tmsY)
            }
        }
        return path
    }
}
