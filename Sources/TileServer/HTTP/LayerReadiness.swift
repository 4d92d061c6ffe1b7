#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a built layer's source answers now, for `/readyz`: its folder or file is still there
/// and readable (a shared volume that went away, a file deleted or made unreadable), and, for a
/// composite, every member's. Generated tiles and custom sources always answer; an upstream is
/// not probed (it may fail a moment and come back: its tiles are then 503s or stale copies,
/// counted in `tilelayer_upstream_failures_total`). Blocking (`stat`, `access`): call it on a worker.
enum LayerReadiness {
    /// Why `layer` cannot serve now, nil when it can.
    static func problem(of layer: Layer) -> String? {
        if let own = problem(of: layer.settings.source) { return own }
        for member in layer.members {
            if let broken = problem(of: member) { return "member \"\(member.name)\": \(broken)" }
        }
        return nil
    }

    private static func problem(of source: SourceSettings) -> String? {
        switch source {
        case .directory(let path, _): return problem(at: path, folder: true)
        case .mbtiles(let path), .pmtiles(let path): return problem(at: path, folder: false)
        default: return nil
        }
    }

    private static func problem(at path: String, folder: Bool) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        if folder != isFolder { return "\(path) is not a \(folder ? "folder" : "file")" }
        guard access(path, folder ? R_OK | X_OK : R_OK) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        return nil
    }
}
