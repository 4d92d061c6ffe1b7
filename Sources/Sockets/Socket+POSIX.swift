// The POSIX calls whose names clash with `Socket`'s own methods, the same on Glibc and Darwin
// (the calls that differ are in Socket+Glibc.swift and Socket+Darwin.swift).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    // recv, not read: a socket's read(2) goes through vfs_read first (its checks and file
    // notifications), about a microsecond a request more in the kernel profile of a hot tile.
    recv(fd, buffer, count, 0)
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
