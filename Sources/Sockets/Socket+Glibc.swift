// Platform shims: the few calls whose names or constants differ between Glibc and Darwin,
// or clash with `Socket`'s own method names.

#if canImport(Glibc)
import CLinux
import Glibc

let socketStreamType = Int32(SOCK_STREAM.rawValue)

#elseif canImport(Darwin)
import Darwin

let socketStreamType = SOCK_STREAM
#endif

/// `accept4`: the new socket is non-blocking and close-on-exec from the start (Glibc's Swift
/// module does not export `accept4`, so it comes from the CLinux shim).
func acceptNonBlocking(_ fd: Int32, _ address: UnsafeMutablePointer<sockaddr>, _ length: inout socklen_t) -> Int32 {
    clinux_accept(fd, address, &length)
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
