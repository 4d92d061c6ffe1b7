// Platform shims: the few calls whose names or constants differ between Glibc and Darwin,
// or clash with `Socket`'s own method names. Linux here; Darwin in Socket+Darwin.swift.

#if os(Linux)
import CLinux
import Glibc

let socketStreamType = Int32(SOCK_STREAM.rawValue)

/// `accept4`: the new socket is non-blocking and close-on-exec from the start (Glibc's Swift
/// module does not export `accept4`, so it comes from the CLinux shim).
func acceptNonBlocking(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
    clinux_accept(fd, address, &length)
}

/// `writev`, or with `more` a `sendmsg` with `MSG_MORE` (a body follows at once).
func systemWritev(_ fd: Int32, _ buffers: UnsafeBufferPointer<iovec>, more: Bool) -> Int {
    more ? clinux_writev_more(fd, buffers.baseAddress, Int32(buffers.count))
        : writev(fd, buffers.baseAddress, Int32(buffers.count))
}

/// `sendfile(2)`: bytes sent, or -1 with errno.
func systemSendfile(to socket: Int32, from file: Int32, offset: Int, count: Int) -> Int {
    clinux_sendfile(socket, file, offset, count)
}
#endif
