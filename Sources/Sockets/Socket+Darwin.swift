// Platform shims for Darwin (see Socket+Glibc.swift): no accept4, MSG_MORE or MSG_NOSIGNAL;
// SO_NOSIGPIPE on each socket instead, and Darwin's own sendfile. Not built or tested on this
// project's Linux machines (the README says so).

#if canImport(Darwin)
import Darwin

let socketStreamType = SOCK_STREAM

/// `accept`, then non-blocking, close-on-exec and no SIGPIPE on writes to a closed peer.
func acceptNonBlocking(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
    let client = accept(fd, address, &length)
    guard client >= 0 else { return client }
    _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL, 0) | O_NONBLOCK)
    _ = fcntl(client, F_SETFD, FD_CLOEXEC)
    var on: Int32 = 1
    _ = setsockopt(client, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    return client
}

/// `writev` (Darwin has no MSG_MORE; the head goes out in its own segment).
func systemWritev(_ fd: Int32, _ buffers: UnsafeBufferPointer<iovec>, more: Bool) -> Int {
    writev(fd, buffers.baseAddress, Int32(buffers.count))
}

/// Darwin's `sendfile(file, socket, offset, &length, nil, 0)`: on EAGAIN it still reports
/// the bytes it sent in `length`.
func systemSendfile(to socket: Int32, from file: Int32, offset: Int, count: Int) -> Int {
    var length = off_t(count)
    let rc = sendfile(file, socket, off_t(offset), &length, nil, 0)
    if rc == 0 || length > 0 { return Int(length) }
    return -1
}
#endif
