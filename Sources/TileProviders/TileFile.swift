#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
#if os(Linux)
import CLinux
#endif
import Sockets

/// An open regular file holding one tile; the descriptor closes when the object is released.
public final class TileFile: Sendable {
    /// The open descriptor (read-only, close-on-exec; non-blocking when opened by an event loop,
    /// which a regular file on a local filesystem ignores).
    public let descriptor: Int32
    /// Where it was opened, for messages.
    public let path: String
    /// Its version when opened (`fstat`).
    public let identity: FileIdentity
    /// Its size in bytes when opened.
    public var size: Int { Int(identity.size) }
    /// Its modification time when opened, seconds since 1970.
    public var modified: Int { identity.modifiedSeconds }

    init(descriptor: Int32, path: String, info: stat) {
        self.descriptor = descriptor
        self.path = path
        self.identity = FileIdentity(info)
        DescriptorBudget.process.opened()
    }

    deinit {
        close(descriptor)
        DescriptorBudget.process.closed()
    }

    /// Its version now (`fstat`: a file rewritten in place since it was opened has another);
    /// nil when that fails.
    public func currentIdentity() -> FileIdentity? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? FileIdentity(info) : nil
    }

    /// Whether the page cache holds all of the file now (its size when opened), so that sending
    /// it (`sendfile`) needs no disk: `cachestat` (Linux 6.5). Nil when that cannot be told: a
    /// file this process neither owns nor may write (the kernel does not say), an older kernel,
    /// or off Linux. An event loop then reads it with `readAllWithoutWaiting` instead.
    public func isCachedWhole() -> Bool? {
        #if os(Linux)
        switch clinux_cached_whole(descriptor, size) {
        case 1: return true
        case 0: return false
        default: return nil
        }
        #else
        return nil
        #endif
    }

    /// Largest file `readAllWithoutWaiting` reads: a tile's size, so an event loop that reads
    /// and hashes it is not held up.
    public static let maxBytesReadWithoutWaiting = 1 << 20

    /// The whole file if the page cache holds all of it (`preadv2` with `RWF_NOWAIT`: no disk
    /// wait, so an event loop may call it); nil when any of it would need the disk, when it is
    /// larger than `maxBytesReadWithoutWaiting` or shrank, or off Linux.
    public func readAllWithoutWaiting() -> [UInt8]? {
        #if os(Linux)
        guard size <= Self.maxBytesReadWithoutWaiting else { return nil }
        let (bytes, failure) = read(count: size) { buffer, count, offset in clinux_pread_cached(descriptor, buffer, count, offset) }
        return failure == 0 && bytes.count == size ? bytes : nil
        #else
        return nil
        #endif
    }

    /// The file's bytes as one version, and that version: read whole, then `fstat` again; a file
    /// written meanwhile (in place: `cp` over it, `rsync --inplace`) is read again at its new
    /// size, up to `readAttempts` times, so the bytes are never a mix of two versions nor
    /// labelled with another's identity. A `settling` file (`FileIdentity.isSettling`) is read
    /// under a read lease (`withReadLease`): a write updates the file's times when it starts,
    /// not when its bytes are all in, so only a file no process has open for writing is read
    /// whole as one version (where leases are refused it is read twice and compared). Throws
    /// `.changing` when it kept changing, or stayed open for writing.
    public func readVersion(settling: Bool = false) throws(TileProviderError) -> (bytes: [UInt8], identity: FileIdentity) {
        var expected = identity
        for attempt in 0 ..< Self.readAttempts {
            let count = Int(expected.size)
            var bytes: [UInt8]
            if settling {
                switch withReadLease({ () throws(TileProviderError) in try read(count: count) }) {
                case .read(let read): bytes = try read.get()
                case .openForWriting:
                    if attempt + 1 < Self.readAttempts { usleep(Self.writerWaitMicroseconds) }
                    continue
                case .refused:
                    bytes = try read(count: count)
                    guard try read(count: count) == bytes else { continue }
                }
            } else {
                bytes = try read(count: count)
            }
            guard let after = currentIdentity() else { throw .unreadable(path: path, errno: errno) }
            if after == expected && bytes.count == count { return (bytes, after) }
            expected = after
        }
        throw .changing(path: path)
    }

    /// `readVersion` for an event loop: only from the page cache (`readAllWithoutWaiting`), once,
    /// a settling file under a read lease taken at once or not at all; nil when that cannot read
    /// it, or the file changed or is open for writing (`readVersion` then reads it, off the loop).
    public func readVersionWithoutWaiting(settling: Bool) -> [UInt8]? {
        let bytes: [UInt8]?
        if settling {
            switch withReadLease({ readAllWithoutWaiting() }) {
            case .read(let read): bytes = read
            case .openForWriting: return nil
            case .refused:
                let first = readAllWithoutWaiting()
                bytes = first != nil && readAllWithoutWaiting() == first ? first : nil
            }
        } else {
            bytes = readAllWithoutWaiting()
        }
        guard let bytes, currentIdentity() == identity else { return nil }
        return bytes
    }

    /// What `withReadLease` did.
    enum Leased<T> {
        /// `body`'s answer, read while no process could write the file.
        case read(T)
        /// A process has the file open for writing: it may be writing now.
        case openForWriting
        /// Leases are refused here (a file this process neither owns nor has CAP_LEASE for, a
        /// filesystem without them, or off Linux).
        case refused
    }

    /// `body` run under a read lease on the file (Linux `F_SETLEASE`): taken only when no process
    /// has the file open for writing, it keeps any from opening it for writing (or truncating
    /// it) until `body` returns; such a writer waits for that, a few microseconds.
    func withReadLease<T>(_ body: () -> T) -> Leased<T> {
        #if os(Linux)
        guard clinux_read_lease(descriptor) == 0 else { return errno == EAGAIN ? .openForWriting : .refused }
        defer { clinux_end_lease(descriptor) }
        return .read(body())
        #else
        return .refused
        #endif
    }

    /// Whether some process has the file open for writing now (a read lease cannot be taken):
    /// bytes that are not a whole tile may be a write under way, not a broken file. False where
    /// leases are refused (nothing can be told).
    public func isOpenForWriting() -> Bool {
        if case .openForWriting = withReadLease({ () }) { return true }
        return false
    }

    /// `withReadLease` for a body that throws.
    private func withReadLease<T>(_ body: () throws(TileProviderError) -> T) -> Leased<Result<T, TileProviderError>> {
        withReadLease { Result { () throws(TileProviderError) in try body() } }
    }

    /// Microseconds a worker waits between reads of a file open for writing.
    static let writerWaitMicroseconds: UInt32 = 20_000

    /// `count` bytes from the start (fewer when the file is shorter).
    private func read(count: Int) throws(TileProviderError) -> [UInt8] {
        let (bytes, failure) = read(count: count) { buffer, count, offset in pread(descriptor, buffer, count, off_t(offset)) }
        if failure != 0 { throw .unreadable(path: path, errno: failure) }
        return bytes
    }

    /// Reads of a file written in place before `readVersion` gives up.
    static let readAttempts = 3

    /// Up to `size` bytes from the start, with `readAt(buffer, count, offset)` (a `pread`) until
    /// it reads nothing or fails (retried on EINTR): the bytes read, and the errno of a failure.
    private func read(
        count size: Int, with readAt: (UnsafeMutableRawPointer, Int, Int) -> Int
    ) -> (bytes: [UInt8], failure: Int32) {
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
