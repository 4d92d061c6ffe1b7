#if os(Linux)
import CLinux
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// A pipe an event loop sends answers through by reference (Linux): an answer's head is written
/// into it, its body's pages are lent to it (`vmsplice`), and the whole is spliced to the socket,
/// so the kernel hands the socket the body's pages instead of copying them, as `sendfile` does a
/// file's.
///
/// Only for bodies whose pages never change: the socket holds the pages until the peer has them
/// (on loopback, until the client has read them; over a network, until they are acknowledged),
/// long after `send` returns. The pipe is left empty after every `send`: what the socket did not
/// take is read back out of it, so one pipe serves every connection of a loop, one at a time.
/// Elsewhere than Linux there is none (`init` answers nil).
///
/// `@unchecked Sendable`: `send` is called on one loop only (one connection at a time);
/// `bytesByReference` may be read from any thread (an atomic).
public final class SplicePipe: @unchecked Sendable {
    private let readEnd: Int32
    private let writeEnd: Int32
    /// How many buffers the pipe holds: the head takes one for each page of it, and the body
    /// one for each page (or part of one) each of its pieces touches.
    public let slots: Int
    /// Body bytes the socket took by reference, since the pipe was made (read from any thread).
    public var bytesByReference: Int { sentByReference.load(ordering: .relaxed) }
    private let sentByReference = Atomic<Int>(0)

    private static let pageSize = Int(sysconf(Int32(_SC_PAGESIZE)))

    /// A pipe asked to hold `bytes` (1 MiB: the most an unprivileged process may ask by default,
    /// /proc/sys/fs/pipe-max-size; the kernel may keep less). Nil where there is none.
    public init?(bytes: Int = 1 << 20) {
        #if os(Linux)
        var ends: [Int32] = [-1, -1]
        let held = clinux_splice_pipe(&ends, bytes)
        guard held > 0 else { return nil }
        (readEnd, writeEnd) = (ends[0], ends[1])
        slots = held / Self.pageSize
        #else
        return nil
        #endif
    }

    deinit {
        _ = systemClose(readEnd)
        _ = systemClose(writeEnd)
    }

    /// What became of a `send`.
    public enum SendResult: Equatable {
        /// The socket took it all.
        case sent(Int)
        /// The socket took `count` bytes (perhaps none) and is full; `rest` is what it did not
        /// take, copied back out of the pipe.
        case partly(Int, rest: [UInt8])
        /// Nothing was sent: the body takes more of the pipe than it holds, or its pages could
        /// not be lent (an address not mapped). The pipe is empty; send it another way.
        case declined
        /// The socket failed (the peer reset or closed it).
        case failed(errno: Int32)
    }

    /// Sends `head` (copied into the pipe) then `body` (its pages lent) to `socket`; with `more`,
    /// more follows at once (`SPLICE_F_MORE`).
    public func send(head: UnsafeBufferPointer<iovec>, body: UnsafeBufferPointer<iovec>, to socket: Socket,
                     more: Bool) -> SendResult {
        #if os(Linux)
        let headBytes = head.reduce(0) { $0 + $1.iov_len }
        let bodyBytes = body.reduce(0) { $0 + $1.iov_len }
        guard Self.slotsTaken(head: headBytes, body: body) <= slots else { return .declined }
        if headBytes > 0, writev(writeEnd, head.baseAddress, Int32(head.count)) != headBytes {
            discard()
            return .declined
        }
        if bodyBytes > 0, clinux_vmsplice(writeEnd, body.baseAddress, Int32(body.count)) != bodyBytes {
            discard()
            return .declined
        }
        let total = headBytes + bodyBytes
        var sent = 0
        while sent < total {
            let n = clinux_splice_to_socket(readEnd, socket.descriptor, total - sent, more ? 1 : 0)
            if n > 0 {
                sent += n
                continue
            }
            let code = errno
            if n < 0, code == EINTR { continue }
            if n == 0 || code == EAGAIN || code == EWOULDBLOCK { break }
            discard()
            return .failed(errno: code)
        }
        if sent > headBytes { sentByReference.add(sent - headBytes, ordering: .relaxed) }
        if sent == total { return .sent(total) }
        guard let rest = takeBack(total - sent) else {
            discard()
            return .failed(errno: EIO)
        }
        return .partly(sent, rest: rest)
        #else
        return .declined
        #endif
    }

    /// Buffers `head` bytes written into an empty pipe and `body` lent after them take: a page
    /// each of the head, and one for each page each piece of the body touches.
    static func slotsTaken(head: Int, body: UnsafeBufferPointer<iovec>) -> Int {
        var slots = (head + pageSize - 1) / pageSize
        for piece in body where piece.iov_len > 0 {
            let start = Int(bitPattern: piece.iov_base) / pageSize
            let end = (Int(bitPattern: piece.iov_base) + piece.iov_len - 1) / pageSize
            slots += end - start + 1
        }
        return slots
    }

    #if os(Linux)
    /// The `count` bytes left in the pipe, read out of it (the pipe is then empty); nil when it
    /// holds fewer (not expected: what the socket did not take stays in the pipe).
    private func takeBack(_ count: Int) -> [UInt8]? {
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let n = read(readEnd, buffer.baseAddress! + initialized, count - initialized)
                if n > 0 {
                    initialized += n
                } else if n < 0, errno == EINTR {
                    continue
                } else {
                    break
                }
            }
        }
        return bytes.count == count ? bytes : nil
    }

    /// Empties the pipe, its bytes dropped.
    private func discard() {
        withUnsafeTemporaryAllocation(byteCount: 65536, alignment: 16) { scratch in
            while read(readEnd, scratch.baseAddress, scratch.count) > 0 {}
        }
    }
    #endif
}
