internal import CSQLiteNoWait
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A tile's bytes lent where they lie instead of copied: pieces of an MBTiles file mapped
/// read-only (`SQLiteConnection.lendValueStraight`), for an answer to hand to `writev`, so the
/// kernel copies them from the page cache into the socket once, where a read and a write copy
/// them twice.
///
/// The pieces are valid until `end()`: until then the file's reader is kept (its read
/// transaction holds the file's lock, so no writer changes the pages). Whoever holds a lent
/// tile ends it soon: an answer is sent, or what the socket did not take copied (`copy(from:)`),
/// before its event loop goes on; the reader goes back when the last reference goes too. From a
/// file its operator declared immutable, pieces that all lie in the file's mapping
/// (`isImmutable`) may be lent on to the socket, which holds their pages past `end()`: nothing
/// writes them in place.
///
/// `@unchecked Sendable`: immutable but for the lease, which ends once, from any thread.
public final class LentTileBytes: @unchecked Sendable {
    /// The tile's length, the sum of the pieces' lengths.
    public let count: Int
    /// Where the bytes lie, in order (valid until `end()`).
    public let pieces: UnsafeBufferPointer<iovec>
    /// The file is never written in place (its operator says so) and every piece lies in its
    /// pages (none in a reader's buffer): they stay as they are after `end()`.
    public let isImmutable: Bool
    private let lease: SQLiteReaderLease

    init(pieces: UnsafeBufferPointer<iovec>, count: Int, isImmutable: Bool, lease: SQLiteReaderLease) {
        self.pieces = pieces
        self.count = count
        self.isImmutable = isImmutable
        self.lease = lease
    }

    /// The bytes from `offset` on, copied; nil when the file no longer holds them (cut short
    /// under the mapping by something other than SQLite). Only before `end()`.
    public func copy(from offset: Int = 0) -> [UInt8]? {
        let wanted = count - offset
        guard wanted > 0 else { return [] }
        var copied = false
        let bytes = [UInt8](unsafeUninitializedCapacity: wanted) { buffer, initialized in
            copied = csqlite_nowait_copy_lent(pieces.baseAddress, Int32(pieces.count), offset, buffer.baseAddress, wanted) == 0
            initialized = copied ? wanted : 0
        }
        return copied ? bytes : nil
    }

    /// Lets the pieces go: the file's reader goes back to its readers. Call once nothing reads
    /// the pieces any more; later calls do nothing.
    public func end() { lease.end() }
}
