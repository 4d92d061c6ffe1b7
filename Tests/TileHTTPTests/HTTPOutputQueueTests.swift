// The output queue: byte buffers and file regions, written through a socket that takes a little
// at a time, come out whole and in order, and the count of bytes left follows each write.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Sockets
import Testing
@testable import TileHTTP
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HTTPOutputQueueTests {
    /// A connected pair of local stream sockets, the writing end non-blocking with a small send buffer.
    private struct Pair {
        let writer: Int32
        let reader: Int32

        init() throws {
            var fds: [Int32] = [0, 0]
            try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
            (writer, reader) = (fds[0], fds[1])
            var size: Int32 = 4096
            _ = setsockopt(writer, SOL_SOCKET, SO_SNDBUF, &size, socklen_t(MemoryLayout<Int32>.size))
            _ = fcntl(writer, F_SETFL, fcntl(writer, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(reader, F_SETFL, fcntl(reader, F_GETFL, 0) | O_NONBLOCK)
        }

        /// What the reading end holds now.
        func drain() -> [UInt8] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(reader, $0.baseAddress, $0.count, 0) }
                if n <= 0 { return bytes }
                bytes += chunk[..<n]
            }
        }

        func close() {
            Glibc.close(writer)
            Glibc.close(reader)
        }
    }

    /// An unlinked temporary file holding `bytes`, open for reading; closed when released.
    private final class TemporaryFile: Sendable {
        let descriptor: Int32

        init(_ bytes: [UInt8]) throws {
            let path = NSTemporaryDirectory() + "queue-\(getpid())-\(UInt64.random(in: 0 ... .max))"
            descriptor = open(path, O_RDWR | O_CREAT | O_EXCL, 0o600)
            try #require(descriptor >= 0)
            unlink(path)
            try #require(bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) } == bytes.count)
        }

        deinit { close(descriptor) }
    }

    /// SplitMix64: the same sizes and offsets every run, so a failure can be run again.
    private struct SeededGenerator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    @Test(arguments: [1 as UInt64, 2, 3])
    func buffersAndFileRegionsComeOutWholeAndInOrderThroughPartialWrites(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let contents = (0 ..< 200_000).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let file = try TemporaryFile(contents)
        let pair = try Pair()
        defer { pair.close() }

        var queue = HTTPOutputQueue()
        var expected: [UInt8] = []
        // More chunks than the queue keeps written before it releases them, so that both the
        // release of all and the release of a written prefix are taken.
        for index in 0 ..< 150 {
            if index % 3 == 2 {
                let offset = Int.random(in: 0 ..< 150_000, using: &generator)
                let count = Int.random(in: 1 ... 30_000, using: &generator)
                queue.append(HTTPFileRegion(descriptor: file.descriptor, offset: offset, count: count, owner: file))
                expected += contents[offset ..< offset + count]
            } else {
                let bytes = (0 ..< Int.random(in: 0 ... 3000, using: &generator)).map { _ in UInt8(truncatingIfNeeded: index) }
                queue.append(bytes)  // an empty buffer is not queued
                expected += bytes
            }
        }
        #expect(queue.byteCount == expected.count)

        var received: [UInt8] = []
        var writes = 0
        while true {
            let progress = queue.write(to: Socket(descriptor: pair.writer))
            writes += 1
            try #require(progress != .failed)
            received += pair.drain()
            #expect(queue.byteCount == expected.count - received.count, "the count left follows what was read")
            if progress == .done { break }
        }
        received += pair.drain()
        #expect(queue.isEmpty)
        #expect(queue.byteCount == 0)
        #expect(writes > 10, "the small send buffer took the queue in many writes")
        #expect(received.count == expected.count)
        #expect(received.elementsEqual(expected), "the bytes as queued, in order")
    }

    @Test func aFileThatEndsEarlyFailsTheWrite() throws {
        let file = try TemporaryFile(Array(repeating: 7, count: 100))
        let pair = try Pair()
        defer { pair.close() }
        var queue = HTTPOutputQueue()
        queue.append(Array("head".utf8))
        queue.append(HTTPFileRegion(descriptor: file.descriptor, offset: 50, count: 100, owner: file))
        var progress = HTTPOutputQueue.Progress.pending
        for _ in 0 ..< 10 where progress == .pending {
            progress = queue.write(to: Socket(descriptor: pair.writer))
            _ = pair.drain()
        }
        #expect(progress == .failed, "50 bytes of a promised 100 cannot be sent")
    }
}
