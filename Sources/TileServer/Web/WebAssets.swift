// The front page's static files: an allow-list built once at start-up from what is on disk, so a
// request can only ever name a file that was found then (no path is ever built from a request).

import Foundation

/// The files served under `/assets/`: Leaflet's JavaScript, CSS and images, read at start-up.
struct WebAssets: Sendable {
    /// Where Debian's `libjs-leaflet` installs Leaflet.
    static let debianLeafletFolder = "/usr/share/javascript/leaflet"
    /// The environment variable naming another Leaflet folder (a non-Debian install).
    static let leafletFolderVariable = "TILELAYER_LEAFLET_DIR"

    /// The assets of the Leaflet this process's environment names, else Debian's.
    static func installed() -> WebAssets {
        WebAssets(leafletFolder: leafletFolder(in: ProcessInfo.processInfo.environment))
    }

    /// The Leaflet folder `environment` names, else Debian's.
    static func leafletFolder(in environment: [String: String]) -> String {
        environment[leafletFolderVariable].flatMap { $0.isEmpty ? nil : $0 } ?? debianLeafletFolder
    }
    /// Files larger than this are left out (Leaflet's biggest is well under 1 MiB).
    static let maxFileBytes = 4 << 20
    /// The URL folder of Leaflet's files: `/assets/leaflet/…`.
    static let leafletPrefix = "leaflet"

    /// Assets by their path below `/assets/`, e.g. `leaflet/images/layers.png`.
    private let files: [String: WebAsset]

    /// No assets: the front page shows still images instead of maps.
    init() { files = [:] }

    /// The `.js`, `.css` and `.png` files of `leafletFolder` and of its sub-folders one level
    /// down (Leaflet keeps its icons in `images/`); a missing folder gives no assets.
    init(leafletFolder: String) {
        var files: [String: WebAsset] = [:]
        for (relative, full) in Self.listing(of: leafletFolder, depth: 1) {
            guard let type = WebAsset.contentType(forFileName: relative),
                  let attributes = try? FileManager.default.attributesOfItem(atPath: full),
                  let size = attributes[.size] as? Int, size <= Self.maxFileBytes,
                  let data = FileManager.default.contents(atPath: full)
            else { continue }
            let modified = (attributes[.modificationDate] as? Date).map { Int($0.timeIntervalSince1970) }
            files[Self.leafletPrefix + "/" + relative] = WebAsset(body: Array(data), contentType: type, lastModified: modified)
        }
        self.files = files
    }

    /// The asset at `path` (the request's segments after `assets`), or nil.
    subscript(path: [String]) -> WebAsset? {
        files[path.joined(separator: "/")]
    }

    /// Every asset path, sorted (for logs and tests).
    var paths: [String] { files.keys.sorted() }

    /// Whether Leaflet's script and stylesheet are both there, so the page can draw live maps.
    var hasLeaflet: Bool {
        files[Self.leafletPrefix + "/leaflet.js"] != nil && files[Self.leafletPrefix + "/leaflet.css"] != nil
    }

    /// Regular files (symbolic links followed) below `folder` as (relative path, full path).
    private static func listing(of folder: String, depth: Int) -> [(String, String)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []
        var found: [(String, String)] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let full = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: full, isDirectory: &isFolder) else { continue }
            if isFolder.boolValue {
                guard depth > 0 else { continue }
                found += listing(of: full, depth: depth - 1).map { (name + "/" + $0.0, $0.1) }
            } else {
                found.append((name, full))
            }
        }
        return found
    }
}
