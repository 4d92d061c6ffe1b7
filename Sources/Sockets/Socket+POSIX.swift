// The POSIX calls whose names clash with `Socket`'s own methods, the same on Glibc and Darwin
// (the calls that differ are in Socket+Glibc.swift and Socket+Darwin.swift).

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
