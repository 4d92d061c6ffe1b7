#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A response body: bytes in memory, sent with `writev`, or a region of an open file, sent
/// with `sendfile` (from the page cache to the socket, no copy through the process: nginx's way
/// with files). One enum, as NIO's `IOData` is.
public enum HTTPBody: Sendable {
    /// Bytes in memory.
    case bytes([UInt8])
    /// A region of an open file.
    case file(HTTPFileRegion)

    /// No body.
    public static let empty = HTTPBody.bytes([])

    /// The body's length.
    public var count: Int {
        switch self {
        case .bytes(let bytes): return bytes.count
        case .file(let region): return region.count
        }
    }
}

/// A region of an open file, kept open by its owner while the response is queued.
public struct HTTPFileRegion: Sendable {
    /// The open file.
    public let descriptor: Int32
    /// Where the region starts in the file.
    public let offset: Int
    /// The region's length (the `Content-Length`).
    public let count: Int
    /// Keeps `descriptor` open while the response is queued: whoever owns the descriptor closes
    /// it when this object is released.
    public let owner: any AnyObject & Sendable

    /// `count` bytes of `descriptor` from `offset`, kept open by `owner`.
    public init(descriptor: Int32, offset: Int = 0, count: Int, owner: any AnyObject & Sendable) {
        self.descriptor = descriptor
        self.offset = offset
        self.count = count
        self.owner = owner
    }

    /// The region's bytes, read with `pread`; nil when the file cannot give all of them.
    public func read() -> [UInt8]? {
        var failed = false
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            var done = 0
            while done < count {
                let n = pread(descriptor, buffer.baseAddress! + done, count - done, off_t(offset + done))
                if n < 0 && errno == EINTR { continue }
                guard n > 0 else { failed = true; break }
                done += n
            }
            initialized = done
        }
        return failed ? nil : bytes
    }
}
