import Synchronization
import TileHTTP
import TileProviders

/// The ETag and `Last-Modified` text of a tile's contents, and its 200 answer's head, made once
/// per version of those contents (see `TileFingerprints`).
final class TileFingerprint: Sendable {
    /// Strong ETag: XXH64 of the contents, as for every other tile.
    let etag: String
    let lastModifiedText: String
    /// The length of the contents.
    let byteCount: Int
    /// The unconditional 200 of this version, head encoded once (its body, the file opened or
    /// the bytes read for each answer, is attached per answer).
    let preparedAnswer = PreparedTileAnswer()

    init(etag: String, lastModifiedText: String, byteCount: Int) {
        self.etag = etag
        self.lastModifiedText = lastModifiedText
        self.byteCount = byteCount
    }
}

/// Fingerprints of tile contents by version (`Key`): a tile file by its identity (device, inode,
/// size, mtime), a tile in an archive by the archive reader's `TileContentVersion` and the tile.
/// A tile sent without going through the memory cache is hashed once per version, not once per
/// request (nginx's `open_file_cache` keeps facts about files the same way).
final class TileFingerprints<Key: Hashable & Sendable>: Sendable {
    /// What a version turned out to be: a tile, with its fingerprint, or not a whole tile of the
    /// layer's format (remembered too, so that a broken file is not read again and again, on an
    /// event loop among others, only for the workers to refuse it each time).
    private enum Version {
        case tile(TileFingerprint)
        case notATile
    }

    private let table = Mutex<[Key: Version]>([:])

    /// Versions remembered; past this the table starts over (a tile pyramid being rewritten).
    static var capacity: Int { 65_536 }

    init() {}

    /// The fingerprint of `key`'s version if it is known, nil if it is known not to be a tile;
    /// else the one of the bytes `read` gives (nil: not read), remembered unless they are not
    /// `expectedCount` long (a file that shrank while it was read: its next version will tell).
    func fingerprint(
        for key: Key, format: TileFormat, lastModified: Int, expectedCount: Int? = nil, read: () -> [UInt8]?
    ) -> TileFingerprint? {
        switch version(of: key) {
        case .tile(let known): return known
        case .notATile: return nil
        case nil:
            guard let bytes = read(), expectedCount.map({ $0 == bytes.count }) ?? true else { return nil }
            return remember(bytes, as: key, format: format, lastModified: lastModified)
        }
    }

    /// The fingerprint of `bytes`, remembered as `key`'s; nil, remembered too, when they are not
    /// a tile of `format`.
    private func remember(_ bytes: [UInt8], as key: Key, format: TileFormat, lastModified: Int) -> TileFingerprint? {
        var made: TileFingerprint?
        if format.matches(bytes) {
            made = TileFingerprint(etag: ContentHash.etag(of: bytes),
                                   lastModifiedText: HTTPDate.format(secondsSince1970: lastModified),
                                   byteCount: bytes.count)
        }
        // A full table starts over; the old one is released after the lock (this runs on event
        // loops too).
        let dropped = table.withLock { table -> [Key: Version] in
            var old: [Key: Version] = [:]
            if table.count >= Self.capacity { swap(&old, &table) }
            table[key] = made.map { .tile($0) } ?? .notATile
            return old
        }
        _ = dropped
        return made
    }

    private func version(of key: Key) -> Version? {
        table.withLock { $0[key] }
    }

    /// The fingerprint of `key`'s version if it was made before (no read).
    func known(_ key: Key) -> TileFingerprint? {
        if case .tile(let known) = version(of: key) { return known }
        return nil
    }

    /// Versions remembered now (tiles and ones that are not).
    var count: Int { table.withLock { $0.count } }
}

extension TileFingerprints where Key == FileIdentity {
    /// The file's fingerprint; nil when it is not a whole tile of `format` (the caller then
    /// takes the ordinary path, which reads the file again and says what is wrong with it).
    func fingerprint(of file: TileFile, format: TileFormat) -> TileFingerprint? {
        fingerprint(for: file.identity, format: format, lastModified: file.modified, expectedCount: file.size) {
            try? file.readAll()
        }
    }

    /// `fingerprint(of:format:)` for an event loop: a version not seen before is read only if
    /// the page cache holds the whole file (`TileFile.readAllWithoutWaiting`); nil when it does
    /// not, or the file is not a whole tile: the workers then take it.
    func fingerprintWithoutWaiting(of file: TileFile, format: TileFormat) -> TileFingerprint? {
        fingerprint(for: file.identity, format: format, lastModified: file.modified, expectedCount: file.size) {
            file.readAllWithoutWaiting()
        }
    }

    /// The fingerprint of this version of the file if it was made before (no read).
    func known(_ file: TileFile) -> TileFingerprint? { known(file.identity) }
}
