#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinux
#endif
import Synchronization

/// A synchronous provider whose tiles are whole files: the server may send a tile straight from
/// its file (`sendfile`) instead of reading it into memory first.
public protocol FileTileProvider: SyncTileProvider {
    /// The tile's open file; nil when there is no tile. Throws what `tile(for:)` would.
    func tileFile(for request: TileRequest) throws(TileProviderError) -> TileFile?

    /// The tile's open file if opening it needs no disk access (an event loop may ask); nil when
    /// it would, or when there is no tile or an error: `tileFile(for:)` then answers, off the loop.
    func tileFileWithoutWaiting(for request: TileRequest) -> TileFile?
}

extension FileTileProvider {
    /// By default a provider cannot open without waiting.
    public func tileFileWithoutWaiting(for request: TileRequest) -> TileFile? { nil }
}

/// An open regular file holding one tile; the descriptor closes when the object is released.
public final class TileFile: Sendable {
    /// The open descriptor (read-only, close-on-exec; non-blocking when opened by an event loop,
    /// which a regular file on a local filesystem ignores).
    public let descriptor: Int32
    /// Where it was opened, for messages.
    public let path: String
    /// Its size in bytes when opened.
    public let size: Int
    /// Its modification time, seconds since 1970.
    public var modified: Int { identity.modifiedSeconds }
    /// Which version of which file it is.
    public let identity: FileIdentity
    /// Set once `cachestat` would not tell about this file (a file this process neither owns
    /// nor may write, which stays so while it is open: the process's user does not change), so
    /// a loop that sends it for a second is not refused by a system call per request.
    private let notTold = Atomic<Bool>(false)
    /// When (`Monotonic.nanoseconds`) the page cache was last found to hold all of the file
    /// (`isCachedWhole(at:trusting:)`); 0: never.
    private let foundCachedWhole = Atomic<UInt64>(0)

    init(descriptor: Int32, path: String, info: stat) {
        self.descriptor = descriptor
        self.path = path
        self.size = Int(info.st_size)
        self.identity = FileIdentity(info)
    }

    deinit { close(descriptor) }

    /// Whether the page cache holds all of the file (its size when opened), so that sending it
    /// (`sendfile`) needs no disk: `cachestat` (Linux 6.5). Nil when that cannot be told: a file
    /// this process neither owns nor may write (the kernel does not say), an older kernel, or
    /// off Linux (asked once per open file). An event loop then reads it with
    /// `readAllWithoutWaiting` instead of sending it.
    public func isCachedWhole() -> Bool? {
        #if os(Linux)
        if notTold.load(ordering: .relaxed) { return nil }
        switch clinux_cached_whole(descriptor, size) {
        case 1: return true
        case 0: return false
        default:
            notTold.store(true, ordering: .relaxed)
            return nil
        }
        #else
        return nil
        #endif
    }

    /// `isCachedWhole()` at `now` (monotonic nanoseconds), taking a yes found less than `trust`
    /// nanoseconds before to hold still: asked again only after that (a no, at once). Pages just
    /// sent from are the last the kernel evicts, and a machine that drops them within a second
    /// is short enough of memory that everything waits (or someone dropped them on purpose:
    /// `drop_caches`, a tool's POSIX_FADV_DONTNEED; a loop that sends such a file within the
    /// trust waits for the disk once). Asking costs a system call a request (`cachestat`, on
    /// the file's cold structures: 4.7 % of a file-sent request's CPU on the uniform working
    /// set, perf on a 2-vCPU AMD EPYC VM). Asked each time when `trust` is 0.
    public func isCachedWhole(at now: UInt64, trusting trust: UInt64) -> Bool? {
        let found = foundCachedWhole.load(ordering: .relaxed)
        // A yes found by another thread after `now` was read counts as found now.
        if trust > 0, found != 0, now &- found < trust || found > now { return true }
        let told = isCachedWhole()
        if told == true, trust > 0 { foundCachedWhole.store(max(now, 1), ordering: .relaxed) }
        return told
    }

    /// Largest file `readAllWithoutWaiting` reads: a tile's size, so an event loop that reads
    /// and hashes it is not held up.
    public static let maxBytesReadWithoutWaiting = 1 << 20

    /// The whole file if the page cache holds all of it (`preadv2` with `RWF_NOWAIT`: no disk
    /// wait, so an event loop may call it); nil when any of it would need the disk, when it is
    /// larger than `maxBytesReadWithoutWaiting` or shrank, or off Linux. `readAll` then reads it,
    /// off the loop.
    public func readAllWithoutWaiting() -> [UInt8]? {
        #if os(Linux)
        guard size <= Self.maxBytesReadWithoutWaiting else { return nil }
        let (bytes, failure) = read { buffer, count, offset in clinux_pread_cached(descriptor, buffer, count, offset) }
        return failure == 0 && bytes.count == size ? bytes : nil
        #else
        return nil
        #endif
    }

    /// The whole file, read into memory (straight into uninitialised storage: no zero-fill of a
    /// buffer about to be overwritten); a file that shrank since it was opened reads short.
    public func readAll() throws(TileProviderError) -> [UInt8] {
        let (bytes, failure) = read { buffer, count, offset in pread(descriptor, buffer, count, off_t(offset)) }
        if failure != 0 { throw .unreadable(path: path, errno: failure) }
        return bytes
    }

    /// Up to `size` bytes from the start, with `readAt(buffer, count, offset)` (a `pread`) until
    /// it reads nothing or fails (retried on EINTR): the bytes read, and the errno of a failure.
    private func read(with readAt: (UnsafeMutableRawPointer, Int, Int) -> Int) -> (bytes: [UInt8], failure: Int32) {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: size) { buffer, count in
            var done = 0
            while done < size {
                let n = readAt(buffer.baseAddress! + done, size - done, done)
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else {
                    if n < 0 { failure = errno }
                    break
                }
                done += n
            }
            count = done
        }
        return (bytes, failure)
    }
}
