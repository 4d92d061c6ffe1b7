#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Whether a built layer's source answers now, for `/readyz`: its folder or file is still there
/// and readable (a shared volume that went away, a file deleted or made unreadable), and, for a
/// composite, every member's; each source says what it needs (`ConfiguredSource.readinessProblem()`:
/// generated tiles and custom sources always answer; an upstream is not probed, its failures are
/// counted in `tilelayer_upstream_failures_total`). Blocking (`stat`, `access`): call it on a worker.
enum LayerReadiness {
    /// Why `layer` cannot serve now, nil when it can.
    static func problem(of layer: Layer) -> String? {
        if let own = layer.settings.source.value.readinessProblem() { return own }
        for member in layer.members {
            if let broken = problem(of: member) { return "member \"\(member.name)\": \(broken)" }
        }
        return nil
    }

    /// Why the folder (`folder`) or file at `path` cannot be read now, nil when it can.
    static func problem(at path: String, folder: Bool) -> String? {
        var info = stat()
        guard stat(path, &info) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        let isFolder = (info.st_mode & S_IFMT) == S_IFDIR
        if folder != isFolder { return "\(path) is not a \(folder ? "folder" : "file")" }
        guard access(path, folder ? R_OK | X_OK : R_OK) == 0 else { return "\(path): \(String(cString: strerror(errno)))" }
        return nil
    }
}
