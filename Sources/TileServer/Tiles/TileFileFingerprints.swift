import Synchronization
import TileHTTP
import TileProviders

/// The ETag and `Last-Modified` text of tile files, by file version (device, inode, size,
/// mtime): a tile sent straight from its file is read and hashed once per version, not once per
/// request (nginx's `open_file_cache` keeps facts about files the same way).
final class TileFileFingerprints: Sendable {
    final class Fingerprint: Sendable {
        /// Strong ETag: XXH64 of the contents, as for every other tile.
        let etag: String
        let lastModifiedText: String
        /// The unconditional 200 of this file version, head encoded once (its body, the file
        /// opened for each answer, is attached per answer).
        let preparedAnswer = PreparedTileAnswer()

        init(etag: String, lastModifiedText: String) {
            self.etag = etag
            self.lastModifiedText = lastModifiedText
        }
    }

    private let table = Mutex<[FileIdentity: Fingerprint]>([:])

    /// Versions remembered; past this the table starts over (a tile pyramid being rewritten).
    static let capacity = 65_536

    /// The file's fingerprint; nil when it is not a whole tile of `format` now (the caller then
    /// takes the ordinary path, which reads the file again and says what is wrong with it).
    func fingerprint(of file: TileFile, format: TileFormat) -> Fingerprint? {
        if let known = known(file) { return known }
        guard let bytes = try? file.readAll() else { return nil }
        return remember(bytes, of: file, format: format)
    }

    /// `fingerprint(of:format:)` for an event loop: a version not seen before is read only if
    /// the page cache holds the whole file (`TileFile.readAllWithoutWaiting`); nil when it does
    /// not, or the file is not a whole tile: the workers then take it.
    func fingerprintWithoutWaiting(of file: TileFile, format: TileFormat) -> Fingerprint? {
        if let known = known(file) { return known }
        guard let bytes = file.readAllWithoutWaiting() else { return nil }
        return remember(bytes, of: file, format: format)
    }

    private func remember(_ bytes: [UInt8], of file: TileFile, format: TileFormat) -> Fingerprint? {
        guard bytes.count == file.size, format.matches(bytes) else { return nil }
        let made = Fingerprint(etag: ContentHash.etag(of: bytes),
                               lastModifiedText: HTTPDate.format(secondsSince1970: file.modified))
        // A full table starts over; the old one is released after the lock (this runs on event
        // loops too).
        let dropped = table.withLock { table -> [FileIdentity: Fingerprint] in
            var old: [FileIdentity: Fingerprint] = [:]
            if table.count >= Self.capacity { swap(&old, &table) }
            table[file.identity] = made
            return old
        }
        _ = dropped
        return made
    }

    /// The fingerprint of this version of the file if it was made before (no read).
    func known(_ file: TileFile) -> Fingerprint? {
        table.withLock { $0[file.identity] }
    }

    /// Versions remembered now.
    var count: Int { table.withLock { $0.count } }
}
