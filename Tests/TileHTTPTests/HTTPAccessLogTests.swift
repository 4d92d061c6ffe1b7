// The batched access log: its line formats, and that lines are written when the buffer fills,
// when the flush interval passes, and at shutdown — none lost, none cut.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Sockets
import TestHTTPClient
import Testing
@testable import TileHTTP
import TestThreads

@Suite(.ownThreads, .timeLimit(.minutes(1))) struct HTTPAccessLogTests {
    private let entry = HTTPAccessLogEntry(peer: Array("127.0.0.1:5000".utf8), method: .get, target: "/a/\"b\\c\"?x=1", status: 200,
                                           bytes: 52_527, micros: 35, cache: "hit")
    private let second = Array("2026-11-23T11:00:00".utf8)
    private var time: HTTPAccessLogTime { HTTPAccessLogTime(second: second, millis: 123) }

    @Test func textLinesCarryEveryField() {
        var buffer: [UInt8] = []
        HTTPAccessLogLine.append(entry, time: time, format: .text, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == """
            2026-11-23T11:00:00.123Z info tilelayer.access : peer=127.0.0.1:5000 method=GET path=/a/"b\\c"?x=1 \
            status=200 bytes=52527 micros=35 cache=hit

            """)
        var head = entry
        head.method = .head
        head.cache = nil
        var headLine: [UInt8] = []
        HTTPAccessLogLine.append(head, time: time, format: .text, to: &headLine)
        #expect(String(decoding: headLine, as: UTF8.self).hasSuffix("""
            : peer=127.0.0.1:5000 method=HEAD path=/a/"b\\c"?x=1 status=200 bytes=52527 micros=35

            """))
    }

    @Test func jsonLinesParseAndEscape() throws {
        var buffer: [UInt8] = []
        var noCache = entry
        noCache.cache = nil
        noCache.status = 404
        HTTPAccessLogLine.append(entry, time: time, format: .json, to: &buffer)
        HTTPAccessLogLine.append(noCache, time: time, format: .json, to: &buffer)
        let lines = buffer.split(separator: UInt8(ascii: "\n"))
        #expect(lines.count == 2)
        let first = try #require(try JSONSerialization.jsonObject(with: Data(lines[0])) as? [String: String])
        #expect(first == ["time": "2026-11-23T11:00:00.123Z", "level": "info", "logger": "tilelayer.access",
                          "message": "request", "peer": "127.0.0.1:5000", "method": "GET", "path": "/a/\"b\\c\"?x=1",
                          "status": "200", "bytes": "52527", "micros": "35", "cache": "hit"])
        let second = try #require(try JSONSerialization.jsonObject(with: Data(lines[1])) as? [String: String])
        #expect(second["cache"] == nil && second["status"] == "404")
    }

    @Test func controlBytesAreShownNotWritten() throws {
        var control = entry
        control.target = "/a\u{01}b\u{7F}"
        var text: [UInt8] = []
        HTTPAccessLogLine.append(control, time: time, format: .text, to: &text)
        #expect(String(decoding: text, as: UTF8.self).contains(" path=/a?b? status="))
        var json: [UInt8] = []
        HTTPAccessLogLine.append(control, time: time, format: .json, to: &json)
        #expect(String(decoding: json, as: UTF8.self).contains("\"path\":\"/a\\u0001b\u{7F}\""))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(json.dropLast())) as? [String: String])
        #expect(object["path"] == "/a\u{01}b\u{7F}")
    }

    /// Pieces of every length up to 40, written after every offset up to 9, land whole and
    /// exactly where they should, the bytes after them untouched (pieces up to 32 bytes are
    /// copied as single bytes or overlapping half words and words).
    @Test func piecesOfEveryLengthAreWrittenWholeAndNoFurther() {
        for length in 0 ... 40 {
            for offset in 0 ... 9 {
                let piece = (0 ..< length).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ length &+ 1) }
                let written = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 64) { memory -> [UInt8] in
                    memory.initialize(repeating: 0xAA)
                    var writer = ByteWriter(memory)
                    for _ in 0 ..< offset { writer.write(UInt8(ascii: "-")) }
                    piece.withUnsafeBufferPointer { writer.write($0) }
                    #expect(writer.count == offset + length)
                    return Array(memory)
                }
                let expected = Array(repeating: UInt8(ascii: "-"), count: offset) + piece
                    + Array(repeating: 0xAA, count: 64 - offset - length)
                #expect(written == expected, "\(length) bytes after \(offset)")
            }
        }
    }

    /// Each side of every power of ten (where the number of digits changes), and some between.
    @Test(arguments: (0 ... 19).flatMap { exponent -> [UInt64] in
        let power = (0 ..< exponent).reduce(UInt64(1)) { product, _ in product * 10 }
        return [power - 1, power, power + 1] + (exponent < 19 ? [power * 3 + 7] : [])
    } + [1234567, UInt64.max])
    func digitsAreDecimal(value: UInt64) {
        let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var writer = ByteWriter(scratch)
            writer.writeDigits(value)
            return String(decoding: UnsafeBufferPointer(start: scratch.baseAddress, count: writer.count), as: UTF8.self)
        }
        #expect(text == String(value))
    }

    @Test(arguments: [(0, "1970-01-01T00:00:00"), (951_782_399, "2000-02-28T23:59:59"),
                      (1_795_000_000, "2026-11-18T11:06:40"), (4_102_444_799, "2099-12-31T23:59:59")] as [(Int64, String)])
    func secondsAreWrittenInUTC(second: Int64, text: String) {
        #expect(String(decoding: HTTPAccessLog.text(ofSecond: second), as: UTF8.self) == text)
    }

    @Test(arguments: [0, 5, 9, 10, 99, 100, 999])
    func millisecondsHaveThreeDigits(millis: Int) {
        var buffer: [UInt8] = []
        HTTPAccessLogLine.append(entry, time: HTTPAccessLogTime(second: second, millis: millis), format: .text, to: &buffer)
        let expected = String(millis + 1000).dropFirst()
        #expect(String(decoding: buffer.prefix(24), as: UTF8.self) == "2026-11-23T11:00:00.\(expected)Z")
    }

    /// The second and the milliseconds of a stamp are set apart: each leaves the other's bytes.
    @Test func aStampsSecondAndMillisecondsChangeApart() {
        func stamp(_ time: HTTPAccessLogTime) -> String {
            var buffer: [UInt8] = []
            HTTPAccessLogLine.append(entry, time: time, format: .text, to: &buffer)
            return String(decoding: buffer.prefix(24), as: UTF8.self)
        }
        var time = HTTPAccessLogTime(second: second, millis: 5)
        time.set(second: Array("2027-01-02T03:04:59".utf8))
        #expect(stamp(time) == "2027-01-02T03:04:59.005Z")
        time.set(millis: 870)
        #expect(stamp(time) == "2027-01-02T03:04:59.870Z")
        time.set(millis: 1234)
        #expect(stamp(time) == "2027-01-02T03:04:59.999Z")
    }

    /// The word-at-a-time test agrees with a byte-by-byte one for a control byte, DEL, a space,
    /// a visible and a non-ASCII byte at every place of strings 0 to 24 bytes long.
    @Test func theControlByteTestAgreesWithAByteByByteOne() {
        for length in 0 ... 24 {
            for place in 0 ..< max(1, length) {
                for probe: UInt8 in [0x00, 0x01, 0x09, 0x1F, 0x20, 0x41, 0x7E, 0x7F, 0x80, 0x9F, 0xA0, 0xFF] {
                    var bytes = [UInt8](repeating: UInt8(ascii: "a"), count: length)
                    if length > 0 { bytes[place] = probe }
                    let expected = bytes.contains { $0 < 0x20 || $0 == 0x7F }
                    let found = bytes.withUnsafeBufferPointer { ByteWriter.hasControlByte($0) }
                    #expect(found == expected, "length \(length), byte \(probe) at \(place)")
                }
            }
        }
    }

    /// A pipe the server writes its access log to, read back whole.
    private final class LogPipe {
        let read: Int32
        let write: Int32

        init() {
            var fds: [Int32] = [0, 0]
            precondition(pipe(&fds) == 0)
            (read, write) = (fds[0], fds[1])
            _ = fcntl(read, F_SETFL, fcntl(read, F_GETFL, 0) | O_NONBLOCK)
            _ = fcntl(write, 1031 /* F_SETPIPE_SZ */, Int32(1 << 20))
        }

        /// The lines written so far.
        func lines() -> [String] {
            var bytes: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 65536)
            while true {
                let n = chunk.withUnsafeMutableBytes { Glibc.read(read, $0.baseAddress, $0.count) }
                if n <= 0 { break }
                bytes += chunk[..<n]
            }
            return String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
        }

        deinit {
            close(read)
            close(write)
        }
    }

    @Test(arguments: IOTransport.available)
    func linesWaitInTheBufferAndNoneIsLostAtShutdown(transport: IOTransport) async throws {
        let log = LogPipe()
        var seen: [String] = []
        try await withLiveServer(transport, configure: {
            $0.accessLogSettings = HTTPAccessLogSettings(enabled: true, format: .text, bufferBytes: 1 << 20,
                                                         flushInterval: 3600, descriptor: log.write)
        }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for index in 0 ..< 50 {
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse()?.status == 200)
            }
            seen = log.lines()
            #expect(seen.isEmpty, "batched: nothing written before the buffer fills or the interval passes")
        }
        seen += log.lines()  // the server has shut down
        #expect(seen.count == 50)
        #expect(seen.allSatisfy { $0.contains(" status=200 ") && $0.contains(" method=GET path=/bytes/") })
    }

    @Test(arguments: IOTransport.available)
    func aFullBufferOrTheIntervalWritesWholeLines(transport: IOTransport) async throws {
        let log = LogPipe()
        try await withLiveServer(transport, configure: {
            $0.accessLogSettings = HTTPAccessLogSettings(enabled: true, format: .json, bufferBytes: 1000,
                                                         flushInterval: 0.2, descriptor: log.write)
        }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for index in 0 ..< 30 {
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse()?.status == 200)
            }
            let early = log.lines()
            #expect(early.count >= 20, "a 1000-byte buffer is written every few lines")
            usleep(600_000)
            let all = early + log.lines()
            #expect(all.count == 30, "the interval writes the rest")
            #expect(all.allSatisfy { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) != nil }, "no line is cut")
        }
    }

    @Test func aRegularFileTakesTheWholeBufferInOneWriteAPipeOrSocketAtMostPipeBuf() throws {
        let path = NSTemporaryDirectory() + "access-\(getpid())-\(UInt64.random(in: 0 ... .max)).log"
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        try #require(file >= 0)
        defer { close(file); unlink(path) }
        #expect(HTTPAccessLog.writeChunk(for: file) == .max)
        let log = LogPipe()
        #expect(HTTPAccessLog.writeChunk(for: log.write) == HTTPAccessLog.pipeAtomicBytes)
        var pair: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &pair) == 0)
        defer { close(pair[0]); close(pair[1]) }
        #expect(HTTPAccessLog.writeChunk(for: pair[0]) == HTTPAccessLog.pipeAtomicBytes)
    }

    @Test(arguments: IOTransport.available)
    func aLogFileGetsEveryLineWholeFromBuffersLongerThanPipeBuf(transport: IOTransport) async throws {
        let path = NSTemporaryDirectory() + "access-\(getpid())-\(UInt64.random(in: 0 ... .max)).log"
        let file = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_APPEND, 0o600)
        try #require(file >= 0)
        defer { close(file); unlink(path) }
        try await withLiveServer(transport, configure: {
            // 16 KiB: each flush writes several PIPE_BUFs of lines at once.
            $0.accessLogSettings = HTTPAccessLogSettings(enabled: true, format: .text, bufferBytes: 16 << 10,
                                                         flushInterval: 3600, descriptor: file)
        }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for index in 0 ..< 400 {
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse()?.status == 200)
            }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 400)
        let paths = Set(lines.compactMap { $0.split(separator: " ").first { $0.hasPrefix("path=") } })
        #expect(paths.count == 400, "every request once, no line cut or merged")
        #expect(lines.allSatisfy { $0.hasPrefix("20") && $0.contains(" status=200 ") && $0.contains(" micros=") })
    }
    /// Each line's time is the wall clock's when its request ended, to the millisecond: within
    /// the time from sending its request to reading its answer, line by line (one connection:
    /// lines in order), so a second or milliseconds not brought up to date would show. A step of
    /// the wall clock during a request (a machine that has just booted sets its clock) widens
    /// that request's window by the step, which the monotonic clock measures.
    @Test(arguments: IOTransport.available)
    func linesAreStampedWithTheWallClock(transport: IOTransport) async throws {
        let log = LogPipe()
        var windows: [(sent: Date, answered: Date, step: TimeInterval)] = []
        try await withLiveServer(transport, configure: {
            $0.accessLogSettings = HTTPAccessLogSettings(enabled: true, format: .text, bufferBytes: 1 << 20,
                                                         flushInterval: 3600, descriptor: log.write)
        }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            /// The wall clock less the monotonic one, in seconds.
            func wallOffset() -> TimeInterval {
                Date().timeIntervalSince1970 - Double(Monotonic.nanoseconds) / 1e9
            }
            for index in 0 ..< 40 {
                let before = wallOffset()
                let sent = Date()
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse()?.status == 200)
                let answered = Date()
                windows.append((sent, answered, abs(wallOffset() - before)))
                if index == 20 { usleep(1_100_000) }  // across a second
                if index % 10 == 5 { usleep(3_000) }  // a few milliseconds on
            }
        }
        let lines = log.lines()
        #expect(lines.count == 40)
        let parser = ISO8601DateFormatter()
        parser.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        for (line, window) in zip(lines, windows) {
            let stamp = try #require(parser.date(from: String(line.prefix(24))), "\(line.prefix(24))")
            // Milliseconds are cut, not rounded: a line may read up to 1 ms before its request
            // ended; 0.1 ms on either side is the two clocks' reading apart.
            let slack = window.step + 0.0001
            #expect(stamp >= window.sent.addingTimeInterval(-0.001 - slack) && stamp <= window.answered.addingTimeInterval(slack),
                    "\(line.prefix(24)) not in \(window.sent.timeIntervalSince1970)…\(window.answered.timeIntervalSince1970)")
        }
    }

    /// A line longer than the buffer's slack (a 6,000-byte target, JSON) arrives whole, next to
    /// short ones.
    @Test(arguments: IOTransport.available)
    func aLineLongerThanTheBufferArrivesWhole(transport: IOTransport) async throws {
        let log = LogPipe()
        let long = "/bytes/1?" + String(repeating: "q", count: 6000)
        try await withLiveServer(transport, configure: {
            $0.accessLogSettings = HTTPAccessLogSettings(enabled: true, format: .json, bufferBytes: 512,
                                                         flushInterval: 3600, descriptor: log.write)
        }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for target in ["/bytes/2", long, "/bytes/3"] {
                client.send("GET \(target) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse()?.status == 200)
            }
        }
        let paths = try log.lines().map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: String])["path"]
        }
        #expect(paths == ["/bytes/2", long, "/bytes/3"])
    }

    /// A non-blocking log that fills (a 4 KiB pipe read only later) keeps what it could not
    /// write and writes it on a later flush: every line once, whole, in order.
    @Test(arguments: IOTransport.available)
    func aFullNonBlockingLogKeepsItsLinesForLater(transport: IOTransport) async throws {
        let log = LogPipe()
        _ = fcntl(log.write, 1031 /* F_SETPIPE_SZ */, Int32(4096))
        _ = fcntl(log.write, F_SETFL, fcntl(log.write, F_GETFL, 0) | O_NONBLOCK)
        var lines: [String] = []
        try await withLiveServer(transport, configure: {
            $0.accessLogSettings = HTTPAccessLogSettings(enabled: true, format: .text, bufferBytes: 1000,
                                                         flushInterval: 0.05, descriptor: log.write)
        }) { port in
            let client = try RawHTTPClient(port: port, timeoutSeconds: liveReadTimeout)
            for index in 0 ..< 200 {
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readResponse()?.status == 200)
            }
            // 200 lines are about 25 KB: the pipe took the first 4 KiB; the rest waits in the log.
            for _ in 0 ..< 100 where lines.count < 200 {
                lines += log.lines()
                usleep(50_000)
            }
        }
        lines += log.lines()
        let paths = lines.compactMap { $0.split(separator: " ").first { $0.hasPrefix("path=") } }
        #expect(paths == (0 ..< 200).map { "path=/bytes/\($0)" })
    }
}

extension HTTPAccessLogLine {
    /// Appends the line for `entry` stamped `time` to `buffer`, as the log writes it into its own.
    static func append(_ entry: HTTPAccessLogEntry, time: HTTPAccessLogTime, format: HTTPAccessLogFormat,
                       to buffer: inout [UInt8]) {
        buffer += [UInt8](unsafeUninitializedCapacity: worstCase(entry)) { memory, initialized in
            var line = ByteWriter(memory)
            write(entry, time: time, format: format, to: &line)
            initialized = line.count
        }
    }
}
