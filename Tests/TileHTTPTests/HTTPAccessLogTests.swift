// The batched access log: its line formats, and that lines are written when the buffer fills,
// when the flush interval passes, and at shutdown — none lost, none cut.

import Foundation
#if canImport(Glibc)
import Glibc
#endif
import Logging
import Sockets
import Testing
@testable import TileHTTP

@Suite(.timeLimit(.minutes(1))) struct HTTPAccessLogTests {
    private let entry = HTTPAccessLogEntry(peer: "127.0.0.1:5000", method: .get, target: "/a/\"b\\c\"?x=1", status: 200,
                                           bytes: 52_527, micros: 35, cache: "hit")
    private let time = Array("2026-11-23T11:00:00.123Z".utf8)

    @Test func textLinesCarryEveryField() {
        var buffer: [UInt8] = []
        HTTPAccessLogLine.append(entry, time: time, format: .text, to: &buffer)
        #expect(String(decoding: buffer, as: UTF8.self) == """
            2026-11-23T11:00:00.123Z info tilelayer.access : peer=127.0.0.1:5000 method=GET path=/a/"b\\c"?x=1 \
            status=200 bytes=52527 micros=35 cache=hit

            """)
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

    @Test(arguments: [0, 7, 9, 10, 99, 100, 1234567, 9_999_999_999_999_999_999, 10_000_000_000_000_000_000, UInt64.max])
    func digitsAreDecimal(value: UInt64) {
        let text = withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { scratch in
            var writer = ByteWriter(scratch)
            writer.writeDigits(value)
            return String(decoding: UnsafeBufferPointer(start: scratch.baseAddress, count: writer.count), as: UTF8.self)
        }
        #expect(text == String(value))
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
            let client = try WireClient(port: port)
            for index in 0 ..< 50 {
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readAnswer()?.status == 200)
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
            let client = try WireClient(port: port)
            for index in 0 ..< 30 {
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readAnswer()?.status == 200)
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
            let client = try WireClient(port: port)
            for index in 0 ..< 400 {
                client.send("GET /bytes/\(index) HTTP/1.1\r\nHost: x\r\n\r\n")
                #expect(client.readAnswer()?.status == 200)
            }
        }
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(lines.count == 400)
        let paths = Set(lines.compactMap { $0.split(separator: " ").first { $0.hasPrefix("path=") } })
        #expect(paths.count == 400, "every request once, no line cut or merged")
        #expect(lines.allSatisfy { $0.hasPrefix("20") && $0.contains(" status=200 ") && $0.contains(" micros=") })
    }
}
