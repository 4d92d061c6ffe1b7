#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A body lent for one answer where it lies (a file's pages, mapped read-only) instead of copied
/// into the process: the output queue hands its pieces to `writev`, so the kernel copies the
/// bytes into the socket once; an immutable body's pages it lends to the socket, with no copy.
///
/// The pieces are valid only until `end()`. The connection ends every lent body it queued
/// before its loop goes on (`HTTPOutputQueue.endLending()`): what the socket did not take by
/// then is copied first (`copy(from:)`), and sent from the copy.
public protocol HTTPLentBody: AnyObject, Sendable {
    /// The body's length, the sum of the pieces' lengths.
    var count: Int { get }
    /// Where the bytes lie, in order.
    var pieces: UnsafeBufferPointer<iovec> { get }
    /// Whether the bytes behind the pieces never change, even after `end()` (a file its operator
    /// declared immutable): the pieces may then be sent by reference (`SplicePipe`), the socket
    /// holding their pages after `end()` until the client has them.
    var isImmutable: Bool { get }
    /// The bytes from `offset` on, copied; nil when they can no longer be read.
    func copy(from offset: Int) -> [UInt8]?
    /// Lets the pieces go (once; later calls do nothing).
    func end()
}
