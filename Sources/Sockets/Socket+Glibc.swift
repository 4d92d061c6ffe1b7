// Platform shims: the few calls whose names or constants differ between Glibc and Darwin,
// or clash with `Socket`'s own method names.

#if canImport(Glibc)
import Glibc

let socketStreamType = Int32(SOCK_STREAM.rawValue)

#elseif canImport(Darwin)
import Darwin

let socketStreamType = SOCK_STREAM
#endif

/// `accept` and make the new socket non-blocking and close-on-exec (Glibc's module does not
/// export `accept4`; the two `fcntl` calls cost less than a microsecond).
func acceptNonBlocking(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
    let client = accept(fd, address, &length)
    if client >= 0 {
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL, 0) | O_NONBLOCK)
        _ = fcntl(client, F_SETFD, FD_CLOEXEC)
    }
    return client
}

func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}

func systemClose(_ fd: Int32) -> Int32 {
    close(fd)
}

func systemListen(_ fd: Int32, _ backlog: Int32) -> Int32 {
    listen(fd, backlog)
}

func systemConnect(_ fd: Int32, _ address: UnsafePointer<sockaddr>, _ length: socklen_t) -> Int32 {
    connect(fd, address, length)
}
