import Logging
import Synchronization
import TileGeometry

/// Tiles from a PMTiles v3 archive over HTTP(S), read with `Range` requests (no blocking I/O:
/// an async provider on AsyncHTTPClient's event loops).
///
/// The first tile reads the first 16 KiB (header and, normally, the whole root directory, spec
/// §3); leaf directories and tiles are read by range and the leaves kept in a bounded cache.
/// Every later read sends `If-Match` with the archive's ETag: a 412 means the archive was
/// replaced, so the header and every cached directory are dropped and the read is retried once
/// on the new version. An archive that is gone (404, refused, timed out, 5xx) → `.unavailable`
/// (503 + Retry-After), and its cached header is dropped; nothing from a failed read is kept.
public final class PMTilesRemoteTileProvider: AsyncTileProvider {
    /// Leaf directories kept decoded.
    public static let leafCacheCapacity = 64
    /// The first read: the header and the root directory (spec §3: root within the first 16 KiB).
    static let initialReadBytes: UInt64 = 16_384

    /// The archive's URL.
    public let url: String
    private let reader: any PMTilesRangeSource
    private let logger: Logger
    private let state = Mutex<Snapshot?>(nil)
    /// The header fields and JSON metadata of the version read last, kept while the archive is
    /// unavailable (TileJSON keeps describing it).
    private let lastMetadata = Mutex<MBTilesMetadata?>(nil)

    /// One version of the archive: its ETag, header, root and leaves.
    final class Snapshot: Sendable {
        let etag: String?
        let header: PMTilesHeader
        let root: PMTilesDirectory
        let metadata: MBTilesMetadata
        let leaves = Mutex(PMTilesLeafCache(capacity: PMTilesRemoteTileProvider.leafCacheCapacity))

        init(etag: String?, header: PMTilesHeader, root: PMTilesDirectory, metadata: MBTilesMetadata) {
            self.etag = etag
            self.header = header
            self.root = root
            self.metadata = metadata
        }
    }

    /// Why one attempt stopped before a tile.
    private enum Stop: Error {
        case changed
        case unavailable(retryAfter: Int, reason: String)
        case failed(TileProviderError)
    }

    /// A provider for `url`; nothing is read until the first tile.
    public convenience init(url: String, settings: UpstreamSettings = UpstreamSettings(), logger: Logger) {
        self.init(url: url, reader: PMTilesRangeReader(url: url, settings: settings), logger: logger)
    }

    /// A provider for `url` whose ranges `reader` reads (an `s3://` object's through GDAL).
    public init(url: String, reader: any PMTilesRangeSource, logger: Logger) {
        self.url = url
        self.reader = reader
        self.logger = logger
    }

    /// The header of the version read last, if any (for diagnostics and tests).
    public var header: PMTilesHeader? { state.withLock { $0?.header } }

    /// The header's zoom range, bounds and center with the JSON metadata's name, attribution,
    /// description and `vector_layers` (as a local archive's), from the last version read; nil
    /// until the first successful read. Kept while the archive is unavailable.
    public var archiveMetadata: MBTilesMetadata? { lastMetadata.withLock { $0 } }

    public func requestTile(_ request: TileRequest) async throws(TileProviderError) -> TileResult {
        let tile = request.tile
        guard tile.z <= TileCoordinate.maxZoom, let id = PMTilesTileID.id(zoom: tile.z, x: tile.x, y: tile.y) else { return .noTile }
        for attempt in 1 ... 2 {
            var used: Snapshot?
            do {
                let snapshot = try await currentSnapshot()
                used = snapshot
                return try await self.tile(id, name: "\(tile.z)/\(tile.x)/\(tile.y)", in: snapshot)
            } catch Stop.changed {
                logger.info("remote PMTiles archive changed (412); reading it again", metadata: ["url": "\(url)", "attempt": "\(attempt)"])
                drop(used)
            } catch Stop.unavailable(let retryAfter, let reason) {
                logger.warning("remote PMTiles archive unavailable", metadata: ["url": "\(url)", "reason": "\(reason)"])
                drop(used)
                return .unavailable(retryAfter: retryAfter)
            } catch Stop.failed(let error) {
                throw error
            } catch {
                throw .upstream(url: url, reason: "\(error)")
            }
        }
        // Replaced again while re-reading: not available now.
        return .unavailable(retryAfter: 1)
    }

    /// Forgets `snapshot` (and so its directories) unless a newer one already replaced it.
    private func drop(_ snapshot: Snapshot?) {
        state.withLock { current in
            if current == nil || snapshot == nil || current === snapshot { current = nil }
        }
    }

    /// The cached version, or the header and root read now (one 16 KiB read when the root fits).
    private func currentSnapshot() async throws -> Snapshot {
        if let cached = state.withLock({ $0 }) { return cached }
        let (first, etag) = try await read(offset: 0, length: Self.initialReadBytes, etag: nil, allowShort: true)
        let snapshot: Snapshot
        do {
            let header = try PMTilesHeader(first)
            let section = header.rootDirectory
            var raw: [UInt8]
            if section.offset + section.length <= UInt64(first.count) {
                raw = Array(first[Int(section.offset) ..< Int(section.offset + section.length)])
            } else {
                raw = try await read(offset: section.offset, length: section.length, etag: etag).bytes
            }
            let root = try PMTilesDirectory(decoding: try header.decompressInternal(raw))
            snapshot = Snapshot(etag: etag, header: header, root: root,
                                metadata: try await metadata(of: header, first: first, etag: etag))
        } catch let error as PMTilesFormatError {
            // The upstream gave something that is not an archive: a bad gateway (502), not our fault (500).
            throw Stop.failed(.upstream(url: url, reason: "not a PMTiles v3 archive: \(error.reason)"))
        }
        state.withLock { $0 = snapshot }
        lastMetadata.withLock { $0 = snapshot.metadata }
        return snapshot
    }

    /// The header fields and JSON metadata; the metadata section is read only when it lies past
    /// the first read (writers put it after the root directory). Metadata that is not a JSON
    /// object (or does not decompress) is logged and left out: tiles do not need it.
    private func metadata(of header: PMTilesHeader, first: [UInt8], etag: String?) async throws -> MBTilesMetadata {
        let section = header.metadata
        var raw: [UInt8] = []
        if section.length > 0 {
            raw = section.offset + section.length <= UInt64(first.count)
                ? Array(first[Int(section.offset) ..< Int(section.offset + section.length)])
                : try await read(offset: section.offset, length: section.length, etag: etag).bytes
        }
        do throws(PMTilesFormatError) {
            return try PMTilesArchive.metadata(header: header, json: raw.isEmpty ? [] : try header.decompressInternal(raw))
        } catch {
            logger.warning("remote PMTiles metadata ignored", metadata: ["url": "\(url)", "reason": "\(error.reason)"])
            return try PMTilesArchive.metadata(header: header, json: [])
        }
    }

    /// The tile `id` of `snapshot`, following leaf directories (at most 3 levels, spec §4.4).
    private func tile(_ id: UInt64, name: String, in snapshot: Snapshot) async throws -> TileResult {
        let header = snapshot.header
        var directory = snapshot.root
        do {
            for _ in 0 ... PMTilesArchive.maxLeafDepth {
                switch directory.lookup(id) {
                case .absent:
                    return .noTile
                case .tile(let offset, let length):
                    guard offset <= header.tileData.length, UInt64(length) <= header.tileData.length - offset else {
                        throw PMTilesFormatError("a tile's bytes lie past the tile data section")
                    }
                    let data = try await read(offset: header.tileData.offset + offset, length: UInt64(length), etag: snapshot.etag).bytes
                    return .tile(Tile(data: data))
                case .leaf(let offset, let length):
                    let at = header.leafDirectories.offset + offset
                    if let cached = snapshot.leaves.withLock({ $0.directory(at: at) }) {
                        directory = cached
                        continue
                    }
                    let raw = try await read(offset: at, length: UInt64(length), etag: snapshot.etag).bytes
                    directory = try PMTilesDirectory(decoding: try header.decompressInternal(raw))
                    snapshot.leaves.withLock { $0.insert(directory, at: at) }
                }
            }
            throw PMTilesFormatError("leaf directories nest deeper than \(PMTilesArchive.maxLeafDepth) levels")
        } catch let error as PMTilesFormatError {
            throw Stop.failed(.corruptArchive(path: url, tile: name, reason: error.reason))
        }
    }

    /// One range read; anything but bytes ends the attempt as a `Stop`.
    private func read(offset: UInt64, length: UInt64, etag: String?, allowShort: Bool = false) async throws(Stop) -> (bytes: [UInt8], etag: String?) {
        let outcome: PMTilesRangeReader.Outcome
        do {
            outcome = try await reader.read(offset: offset, length: length, etag: etag, allowShort: allowShort)
        } catch {
            throw .failed(error)
        }
        switch outcome {
        case .bytes(let bytes, let served): return (bytes, served ?? etag)
        case .changed: throw .changed
        case .unavailable(let retryAfter, let reason): throw .unavailable(retryAfter: retryAfter, reason: reason)
        }
    }
}
