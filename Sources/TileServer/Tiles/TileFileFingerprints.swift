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

    /// What a file version turned out to be: a tile, with its fingerprint, or not a whole tile
    /// of the layer's format (remembered too, so that a broken file is not read again and
    /// again, on an event loop among others, only for the workers to refuse it each time).
    private enum Version {
        case tile(Fingerprint)
        case notATile
    }

    private let table = Mutex<[FileIdentity: Version]>([:])

    /// Versions remembered; past this the table starts over (a tile pyramid being rewritten).
    static let capacity = 65_536

    /// The file's fingerprint; nil when it is not a whole tile of `format` (the caller then
    /// takes the ordinary path, which reads the file again and says what is wrong with it).
    func fingerprint(of file: TileFile, format: TileFormat) -> Fingerprint? {
        fingerprint(of: file, format: format) { try? file.readAll() }
    }

    /// `fingerprint(of:format:)` for an event loop: a version not seen before is read only if
    /// the page cache holds the whole file (`TileFile.readAllWithoutWaiting`); nil when it does
    /// not, or the file is not a whole tile: the workers then take it.
    func fingerprintWithoutWaiting(of file: TileFile, format: TileFormat) -> Fingerprint? {
        fingerprint(of: file, format: format) { file.readAllWithoutWaiting() }
    }

    /// The version's fingerprint if it is known, nil if it is known not to be a tile; else the
    /// one of the bytes `read` gives (nil: not read), remembered.
    private func fingerprint(of file: TileFile, format: TileFormat, read: () -> [UInt8]?) -> Fingerprint? {
        switch version(of: file) {
        case .tile(let known): return known
        case .notATile: return nil
        case nil:
            guard let bytes = read() else { return nil }
            return remember(bytes, of: file, format: format)
        }
    }

    /// The fingerprint of `bytes`, read whole from `file`, remembered with its version; nil,
    /// remembered too, when they are not a tile of `format`; nil, not remembered, when the file
    /// shrank while it was read (its next version will tell).
    private func remember(_ bytes: [UInt8], of file: TileFile, format: TileFormat) -> Fingerprint? {
        guard bytes.count == file.size else { return nil }
        var made: Fingerprint?
        if format.matches(bytes) {
            made = Fingerprint(etag: ContentHash.etag(of: bytes),
                               lastModifiedText: HTTPDate.format(secondsSince1970: file.modified))
        }
        // A full table starts over; the old one is released after the lock (this runs on event
        // loops too).
        let dropped = table.withLock { table -> [FileIdentity: Version] in
            var old: [FileIdentity: Version] = [:]
            if table.count >= Self.capacity { swap(&old, &table) }
            table[file.identity] = made.map { .tile($0) } ?? .notATile
            return old
        }
        _ = dropped
        return made
    }

    private func version(of file: TileFile) -> Version? {
        table.withLock { $0[file.identity] }
    }

    /// The fingerprint of this version of the file if it was made before (no read).
    func known(_ file: TileFile) -> Fingerprint? {
        if case .tile(let known) = version(of: file) { return known }
        return nil
    }

    /// Versions remembered now (tiles and files that are not).
    var count: Int { table.withLock { $0.count } }
}
