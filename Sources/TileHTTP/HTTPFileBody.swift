/// A response body sent from an open file with `sendfile`: the bytes go from the page cache to
/// the socket without a copy through the process (nginx's way of serving files).
public struct HTTPFileBody: Sendable {
    /// The open file.
    public let descriptor: Int32
    /// Where the body starts in the file.
    public let offset: Int
    /// The body's length (the `Content-Length`).
    public let count: Int
    /// Keeps `descriptor` open while the response is queued; whoever owns the descriptor closes
    /// it when this object is released.
    public let owner: any AnyObject & Sendable
    /// Whether the body holds a file open of its own while it lives (a tile file's descriptor),
    /// not a part of a file many bodies share (the memory cache's one memory file): answers
    /// kept to be given again (`HTTPHeadMemo`) that hold files open are bounded.
    public let holdsOpenFile: Bool

    /// A body of `count` bytes of `descriptor` from `offset`, kept open by `owner`; `shared`
    /// when many bodies lie in that one file.
    public init(descriptor: Int32, offset: Int = 0, count: Int, owner: any AnyObject & Sendable, shared: Bool = false) {
        self.descriptor = descriptor
        self.offset = offset
        self.count = count
        self.owner = owner
        holdsOpenFile = !shared
    }
}

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension HTTPFileBody {
    /// The body's bytes, read with `pread`; nil when the file cannot give all of them.
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
