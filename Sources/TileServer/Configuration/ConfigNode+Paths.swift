import Foundation

extension ConfigNode {
    /// The path `child` (this source's `path`) names, made absolute against `baseFolder`; it
    /// must exist as a folder (`folder`) or a file.
    public func existingPath(_ child: ConfigNode?, baseFolder: String, folder: Bool) throws(ConfigurationError) -> String {
        guard let child else { throw error("this source needs a path") }
        let path = Self.resolve(try child.string(), against: baseFolder)
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), isFolder.boolValue == folder else {
            throw child.error("\(folder ? "folder" : "file") \(path) does not exist")
        }
        return path
    }

    /// `path` made absolute relative to the configuration file's folder.
    public static func resolve(_ path: String, against folder: String) -> String {
        let joined = path.hasPrefix("/") ? path : (folder.isEmpty ? path : folder + "/" + path)
        let absolute = joined.hasPrefix("/") ? joined : FileManager.default.currentDirectoryPath + "/" + joined
        return (absolute as NSString).standardizingPath
    }
}
