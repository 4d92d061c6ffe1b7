import Dispatch
import TileGeometry
import TileProviders

/// `seed --to`: a `TileArchiveWriter` (MBTiles, or PMTiles for a `.pmtiles` path) driven from
/// async code. SQLite and file writes run on a private serial queue, never on the
/// Swift-concurrency pool; all access to `writer` happens on `queue`.
final class TileArchiveSink: @unchecked Sendable {
    private let writer: any TileArchiveWriter
    private let queue = DispatchQueue(label: "tilelayer.seed.archive")

    /// A new file at `path` (written beside it, renamed into place by `finish`).
    init(path: String) throws(TileProviderError) {
        writer = try makeTileArchiveWriter(path: path)
    }

    /// Sets metadata rows.
    func setMetadata(_ rows: [(String, String)]) async throws {
        try await run { writer in for (key, value) in rows { try writer.setMetadata(key, value) } }
    }

    /// Stores one tile (XYZ; the writer stores its TMS row).
    func write(tile: TileCoordinate, data: [UInt8]) async throws {
        try await run { writer in try writer.write(tile: tile, data: data) }
    }

    /// Commits and renames the file into place.
    func finish() async throws {
        try await run { writer in try writer.finish() }
    }

    /// Throws the file away.
    func cancel() async {
        try? await run { writer in writer.cancel() }
    }

    private func run(_ body: @escaping @Sendable (any TileArchiveWriter) throws -> Void) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            queue.async { [self] in
                do {
                    try body(self.writer)
                    continuation.resume()
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
    }
}
