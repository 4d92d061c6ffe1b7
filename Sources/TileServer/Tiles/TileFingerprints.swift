import Hashing
import Synchronization
import TileHTTP
import TileProviders

/// The ETag and `Last-Modified` text of one version of a tile file, and its 200 answer's head,
/// made once per version (see `TileFingerprints`).
final class TileFingerprint: Sendable {
    /// Strong ETag: XXH64 of the contents, as for every other tile.
    let etag: String
    let lastModifiedText: String
    /// The unconditional 200 of this version, head encoded once (its body, the file opened or
    /// the bytes read for each answer, is attached per answer).
    let preparedAnswer = PreparedTileAnswer()

    init(etag: String, lastModifiedText: String) {
        self.etag = etag
        self.lastModifiedText = lastModifiedText
    }
}

/// Fingerprints of tile files by version (`FileIdentity`: device, inode, size, modification and
/// change times): a tile sent straight from its file, past the memory cache, is hashed once per
/// version, not once per request (nginx's `open_file_cache` keeps facts about files the same
/// way). A version whose bytes are not a tile of the layer's format is not remembered.
final class TileFingerprints: Sendable {
    private let table = Mutex<[FileIdentity: TileFingerprint]>([:])

    /// Versions remembered; past this the table starts over (a tile pyramid being rewritten).
    static var capacity: Int { 65_536 }

    init() {}

    /// The fingerprint of version `identity`, if it was made before.
    func known(_ identity: FileIdentity) -> TileFingerprint? {
        table.withLock { $0[identity] }
    }

    /// The fingerprint of `bytes`, the whole of version `identity`, remembered; nil when they are
    /// not a whole tile of `format` (walked once per content: `checked`; the caller then takes the
    /// ordinary path, which says what is wrong).
    func fingerprint(of bytes: [UInt8], version identity: FileIdentity, format: TileFormat,
                     checked: CheckedTiles) -> TileFingerprint? {
        if let known = known(identity) { return known }
        let hash = ContentHash.xxh64(bytes)
        guard checked.isWholeTile(bytes, hash: hash, format: format) else { return nil }
        let made = TileFingerprint(etag: ContentHash.etag(hash: hash),
                                   lastModifiedText: HTTPDate.format(secondsSince1970: identity.modifiedSeconds))
        // A full table starts over; the old one is released after the lock (this runs on event
        // loops too).
        let dropped = table.withLock { table -> [FileIdentity: TileFingerprint] in
            var old: [FileIdentity: TileFingerprint] = [:]
            if table.count >= Self.capacity { swap(&old, &table) }
            table[identity] = made
            return old
        }
        _ = dropped
        return made
    }
}
