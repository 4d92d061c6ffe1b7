#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Reads kernel settings folders like /sys/kernel/mm/transparent_hugepage, without Foundation:
/// files of one line that list choices with the selected one in brackets ("always [never]").
enum SettingsFolder {
    /// The bracketed choice of the settings file at `path`; nil when it cannot be read or has none.
    static func selected(_ path: String) -> String? {
        guard let text = contents(path), let open = text.firstIndex(of: "["), let close = text.firstIndex(of: "]"),
              open < close
        else { return nil }
        return String(text[text.index(after: open) ..< close])
    }

    /// The names in the folder at `path` (without "." and ".."); empty when it cannot be read.
    static func entries(of path: String) -> [String] {
        guard let folder = opendir(path) else { return [] }
        defer { closedir(folder) }
        var names: [String] = []
        while let entry = readdir(folder) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The first 4 KiB of the file at `path` as text; nil when it cannot be opened or read.
    private static func contents(_ path: String) -> String? {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 4096)
        let n = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        return n >= 0 ? String(decoding: bytes[..<n], as: UTF8.self) : nil
    }
}
