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
                queue.append(HTTPFileBody(descriptor: file.descriptor, offset: offset, count: count, owner: file))
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

    /// A wire answer's head written again in its file between writes (its Date, each second):
    /// wherever a write cuts the responses, and however stale a queued head is when its turn
    /// comes, the client gets each head as it was queued, never the file's later one or a mix.
    @Test(arguments: [1 as UInt64, 2, 3])
    func aWireAnswersHeadIsSentAsQueued(seed: UInt64) throws {
        #if os(Linux)
        var generator = SeededGenerator(state: seed)
        let body = (0 ..< 12_000).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
        let kept = try #require(HTTPBodyArena.store(body))
        let wire = try #require(HTTPWireAnswer(HTTPResponse(status: .ok).prepared(bodyCount: body.count).sendingFile(kept.fileBody)))
        var second = 0
        /// The next second's Date line (37 bytes, as the server's).
        func nextDate() -> [UInt8] {
            second += 1
            let digits = String(100 + second % 60).dropFirst()
            return Array("Date: Wed, 25 Nov 2026 01:00:\(digits) GMT\r\n".utf8)
        }
        let pair = try Pair()
        defer { pair.close() }
        var queue = HTTPOutputQueue()
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var writes = 0
        func write() throws -> HTTPOutputQueue.Progress {
            let progress = queue.write(to: Socket(descriptor: pair.writer))
            writes += 1
            try #require(progress != .failed)
            if writes % 3 == 0 { received += pair.drain() }  // a reader that falls behind: writes cut short
            return progress
        }
        for index in 0 ..< 40 {
            let filler = [UInt8](repeating: UInt8(truncatingIfNeeded: index), count: Int.random(in: 0 ... 5000, using: &generator))
            queue.append(filler)
            let whole = try #require(wire.fileBody(dateLine: nextDate(), tail: HTTPWireAnswer.tail))
            queue.append(whole, head: wire.head)
            expected += filler + wire.head + body
            if Bool.random(using: &generator) { _ = try write() }
            _ = wire.fileBody(dateLine: nextDate(), tail: HTTPWireAnswer.tail)  // the next second comes
        }
        while try write() != .done {
            received += pair.drain()
            _ = wire.fileBody(dateLine: nextDate(), tail: HTTPWireAnswer.tail)
        }
        received += pair.drain()
        #expect(writes > 40, "the small send buffer cut the responses in many places")
        #expect(received.count == expected.count)
        let mismatch = zip(received, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset
        #expect(mismatch == nil, "every head as queued; first difference at byte \(String(describing: mismatch))")
        #endif
    }

    /// A write that stops inside a wire answer's head (a full socket can cut anywhere): the
    /// rest of that head goes from the queued copy, not from the file, whose head the next
    /// second rewrites, so the client never gets the start of one head and the end of another.
    @Test(arguments: [1, 17, 60])
    func aWriteThatStopsInsideAWireHeadSendsTheRestOfThatHead(cut: Int) throws {
        #if os(Linux)
        let body = (0 ..< 6_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        let kept = try #require(HTTPBodyArena.store(body))
        let wire = try #require(HTTPWireAnswer(HTTPResponse(status: .ok).prepared(bodyCount: body.count).sendingFile(kept.fileBody)))
        let whole = try #require(wire.fileBody(dateLine: Array("Date: Wed, 25 Nov 2026 01:00:01 GMT\r\n".utf8),
                                               tail: HTTPWireAnswer.tail))
        let queued = wire.head
        try #require(cut < queued.count)
        var queue = HTTPOutputQueue()
        queue.append(whole, head: queued)
        queue.consume(cut)  // as a write that sent `cut` bytes would
        // The next second: the file's head now differs from the one queued, from its Date on.
        _ = wire.fileBody(dateLine: Array("Date: Wed, 25 Nov 2026 01:00:02 GMT\r\n".utf8), tail: HTTPWireAnswer.tail)
        try #require(wire.head != queued)
        let pair = try Pair()
        defer { pair.close() }
        var received: [UInt8] = []
        while queue.write(to: Socket(descriptor: pair.writer)) == .pending { received += pair.drain() }
        received += pair.drain()
        #expect(received == Array(queued[cut...]) + body, "the rest of the head as queued, then the body")
        #endif
    }

    @Test func aFileThatEndsEarlyFailsTheWrite() throws {
        let file = try TemporaryFile(Array(repeating: 7, count: 100))
        let pair = try Pair()
        defer { pair.close() }
        var queue = HTTPOutputQueue()
        queue.append(Array("head".utf8))
        queue.append(HTTPFileBody(descriptor: file.descriptor, offset: 50, count: 100, owner: file))
        var progress = HTTPOutputQueue.Progress.pending
        for _ in 0 ..< 10 where progress == .pending {
            progress = queue.write(to: Socket(descriptor: pair.writer))
            _ = pair.drain()
        }
        #expect(progress == .failed, "50 bytes of a promised 100 cannot be sent")
    }

    /// Bytes lent as pieces of memory it owns, as a mapped file's pages would be: counts its
    /// ends and the copies asked of it, and can be told its copies fail (a file cut short).
    /// Immutable, its memory is never written over (a file declared immutable).
    private final class LentBytes: HTTPLentBody, @unchecked Sendable {
        let storage: UnsafeMutableBufferPointer<UInt8>
        let pieces: UnsafeBufferPointer<iovec>
        var count: Int { storage.count }
        let isImmutable: Bool
        private(set) var ends = 0
        private(set) var copiedFrom: [Int] = []
        let copiesFail: Bool

        init(_ bytes: [UInt8], pieceSize: Int, copiesFail: Bool = false, immutable: Bool = false) {
            isImmutable = immutable
            storage = .allocate(capacity: bytes.count)
            _ = storage.initialize(from: bytes)
            let starts = Array(stride(from: 0, to: bytes.count, by: pieceSize))
            let vectors = UnsafeMutableBufferPointer<iovec>.allocate(capacity: starts.count)
            for (index, start) in starts.enumerated() {
                vectors[index] = iovec(iov_base: UnsafeMutableRawPointer(storage.baseAddress! + start),
                                       iov_len: min(pieceSize, bytes.count - start))
            }
            pieces = UnsafeBufferPointer(vectors)
            self.copiesFail = copiesFail
        }

        deinit {
            storage.deallocate()
            pieces.deallocate()
        }

        func copy(from offset: Int) -> [UInt8]? {
            copiedFrom.append(offset)
            return copiesFail ? nil : Array(storage[offset...])
        }

        /// Ended: its memory is written over, as a mapped page may be once the lock is gone
        /// (unless it is immutable).
        func end() {
            ends += 1
            if !isImmutable { storage.update(repeating: 0xEE) }
        }
    }

    /// Writes what `queue` holds and ends its lent bodies after each write, as a connection
    /// does, until all is out (at most 10,000 writes): the last write's progress, and what the
    /// reading end got meanwhile.
    private func finish(
        _ queue: inout HTTPOutputQueue, _ pair: Pair, through pipe: SplicePipe? = nil
    ) -> (HTTPOutputQueue.Progress, [UInt8]) {
        var received: [UInt8] = []
        for _ in 0 ..< 10_000 {
            let progress = queue.write(to: Socket(descriptor: pair.writer), through: pipe)
            let ended = queue.endLending()
            #expect(ended)
            received += pair.drain()
            if progress != .pending { return (progress, received) }
        }
        return (.pending, received)
    }

    /// Answers each a head and a lent body, queued, written and ended as a connection does (its
    /// lent bodies end after each write, before anything else runs), through a socket that takes
    /// a little at a time: each body comes out whole, from its pieces while they are lent and
    /// from a copy of what was left afterwards (the memory behind ended pieces is written over),
    /// and each ends once. One body has more pieces than a `writev` takes.
    @Test(arguments: [1 as UInt64, 2, 3])
    func lentBodiesComeOutWholeAndEachEndsOnceAfterItsWrite(seed: UInt64) throws {
        var generator = SeededGenerator(state: seed)
        let pair = try Pair()
        defer { pair.close() }
        var queue = HTTPOutputQueue()
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var bodies: [LentBytes] = []
        for index in 0 ..< 40 {
            let length = index == 7 ? 30_000 : Int.random(in: 1 ... (index % 3 == 0 ? 1500 : 60_000), using: &generator)
            let body = (0 ..< length).map { _ in UInt8.random(in: 0 ... 0xED, using: &generator) }
            let lent = LentBytes(body, pieceSize: index == 7 ? 10 : Int.random(in: 1 ... 5000, using: &generator))
            bodies.append(lent)
            let head = Array("HTTP/1.1 200 OK\r\nanswer: \(index)\r\n\r\n".utf8)
            queue.append(head)
            queue.append(lent)
            expected += head + body
            #expect(queue.byteCount == expected.count - received.count)
            let progress = queue.write(to: Socket(descriptor: pair.writer))
            try #require(progress != .failed)
            let left = queue.byteCount
            let ended = queue.endLending()
            #expect(ended)
            #expect(lent.ends == 1, "answer \(index): ended right after its write")
            #expect(queue.byteCount == left, "the copy stands for what was left")
            #expect(lent.copiedFrom.count == (progress == .pending ? 1 : 0), "answer \(index): copied only when not sent whole")
            received += pair.drain()
        }
        let (progress, rest) = finish(&queue, pair)
        received += rest
        #expect(progress == .done)
        #expect(received.count == expected.count)
        #expect(received.elementsEqual(expected), "every body whole, none of the memory written over after its end")
        #expect(bodies.allSatisfy { $0.ends == 1 }, "each ended once")
        #expect(bodies.contains { !$0.copiedFrom.isEmpty } && bodies.contains { $0.copiedFrom.isEmpty },
                "the small send buffer cut some bodies and took others whole")
    }

    /// Immutable lent bodies go through the loop's pipe, their pages lent to the socket, with
    /// the head before each: through a socket that takes a little at a time, each body comes out
    /// whole and in order, what the socket did not take read back out of the pipe (no copy asked
    /// of the body), and each ends once; a body the pipe cannot take with the bytes left before
    /// it goes after them. A body of more pages than the pipe holds goes with `writev`, as a
    /// mutable one does.
    @Test(arguments: [1 as UInt64, 2, 3])
    func immutableLentBodiesGoByReferenceAndComeOutWhole(seed: UInt64) throws {
        #if os(Linux)
        var generator = SeededGenerator(state: seed)
        let pipe = try #require(SplicePipe())
        let pair = try Pair()
        defer { pair.close() }
        var queue = HTTPOutputQueue()
        var expected: [UInt8] = []
        var received: [UInt8] = []
        var bodies: [LentBytes] = []
        let tooManyPages = 29  // the last: the bytes of it left would be copied before the next
        for index in 0 ... tooManyPages {
            let length = index == tooManyPages ? (pipe.slots + 8) * 4096
                : Int.random(in: 1 ... (index % 3 == 0 ? 1500 : 100_000), using: &generator)
            let body = (0 ..< length).map { _ in UInt8.random(in: 0 ... 255, using: &generator) }
            let lent = LentBytes(body, pieceSize: index == tooManyPages ? 4096 : Int.random(in: 1000 ... 4092, using: &generator),
                                 immutable: true)
            bodies.append(lent)
            let head = Array("HTTP/1.1 200 OK\r\nanswer: \(index)\r\n\r\n".utf8)
            queue.append(head)
            queue.append(lent)
            expected += head + body
            let progress = queue.write(to: Socket(descriptor: pair.writer), through: pipe)
            try #require(progress != .failed)
            let left = queue.byteCount
            let ended = queue.endLending()
            #expect(ended)
            #expect(lent.ends == 1, "answer \(index): ended by its write or right after it")
            #expect(queue.byteCount == left)
            #expect(lent.copiedFrom.count == (index == tooManyPages && progress == .pending ? 1 : 0),
                    "answer \(index): the rest of a body sent by reference comes out of the pipe")
            received += pair.drain()
        }
        let (last, rest) = finish(&queue, pair, through: pipe)
        received += rest
        #expect(last == .done)
        #expect(received.count == expected.count)
        #expect(received.elementsEqual(expected), "every head and body whole and in order")
        #expect(bodies.allSatisfy { $0.ends == 1 }, "each ended once")
        let byReference = bodies.enumerated().filter { $0.offset != tooManyPages }.reduce(0) { $0 + $1.element.count }
        #expect(pipe.bytesByReference > 0 && pipe.bytesByReference <= byReference,
                "bodies went by reference, not the one of more pages than the pipe holds")
        #endif
    }

    /// A lent body the socket did not take whole, whose rest cannot be copied (its file was cut
    /// short): the write fails, as the promised length can no longer be sent; and a queue
    /// emptied (a connection closed) ends what it was lent.
    @Test func aLentBodyThatCannotBeCopiedFailsAndAnEmptiedQueueEndsItsBodies() throws {
        let pair = try Pair()
        defer { pair.close() }
        var queue = HTTPOutputQueue()
        let cut = LentBytes(Array(repeating: 1, count: 200_000), pieceSize: 4092, copiesFail: true)
        queue.append(cut)
        #expect(queue.write(to: Socket(descriptor: pair.writer)) == .pending)
        let ended = queue.endLending()
        #expect(!ended, "the rest could not be copied")
        #expect(cut.ends == 1)

        var closing = HTTPOutputQueue()
        let unsent = LentBytes(Array(repeating: 2, count: 100), pieceSize: 10)
        closing.append(unsent)
        closing.removeAll()
        #expect(unsent.ends == 1, "ended with the queue")
        let endedNothing = closing.endLending()
        #expect(endedNothing, "nothing left to end")
        #expect(unsent.ends == 1)
    }
}
