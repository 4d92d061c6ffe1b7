// An event loop's access log, nginx style: lines are formatted into one buffer per loop and
// written in batches — when the buffer fills, after `flushInterval`, and when the loop stops —
// instead of one formatted log event and one write per request.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// One loop's buffered access log.
///
/// `@unchecked Sendable`: `buffer`, the time cache and `flushPending` are touched only on
/// `loop` (and by the loop's stop completion, after the loop has run its last task).
final class HTTPAccessLog: @unchecked Sendable {
    let settings: HTTPAccessLogSettings
    private let loop: any IOEventLoop
    private var buffer: [UInt8] = []
    private var flushPending = false
    /// "YYYY-MM-DDTHH:MM:SS.mmmZ", its seconds part rebuilt once a second.
    private var time = [UInt8](repeating: UInt8(ascii: "0"), count: 24)
    private var timeSecond = -1

    /// Most bytes per `write` (`writeChunk(for:)`, for this log's descriptor).
    let maxWriteBytes: Int

    /// Bytes a `write` to a pipe is atomic up to (`PIPE_BUF`: 4096 on Linux, 512 on macOS).
    #if os(Linux)
    static let pipeAtomicBytes = 4096
    #else
    static let pipeAtomicBytes = 512
    #endif

    init(settings: HTTPAccessLogSettings, loop: any IOEventLoop) {
        self.settings = settings
        self.loop = loop
        maxWriteBytes = Self.writeChunk(for: settings.descriptor)
        buffer.reserveCapacity(settings.bufferBytes + 1024)
    }

    /// Appends the line for `entry`; writes the buffer once it is full. Call on the loop.
    func record(_ entry: HTTPAccessLogEntry) {
        // A log that stays full (a non-blocking pipe nobody reads) costs at most this much memory.
        guard buffer.count < Self.maxHeldBytes else { return }
        stampTime()
        HTTPAccessLogLine.append(entry, time: time, format: settings.format, to: &buffer)
        if buffer.count >= settings.bufferBytes { flush() }
        scheduleFlush()
    }

    /// Most bytes held while the log cannot take them.
    static let maxHeldBytes = 4 << 20

    /// Writes what is buffered after `flushInterval`, and again later if the log was full.
    private func scheduleFlush() {
        guard !flushPending, !buffer.isEmpty else { return }
        flushPending = true
        loop.schedule(after: settings.flushInterval) { [self] in
            flushPending = false
            flush()
            scheduleFlush()
        }
    }

    /// Most bytes one `write` of lines to `descriptor` may take, so lines from several loops and
    /// the application's own log never interleave mid-line: `pipeAtomicBytes` for a pipe, a
    /// socket or a terminal, where only writes that short are atomic; no limit for a regular
    /// file (the whole buffer then goes in one system call, as nginx's `access_log … buffer=`
    /// does): on Linux a whole `write` to a file on a local filesystem is not interleaved with
    /// another (the inode is locked across a buffered write; the offset of a shared descriptor
    /// too, since 3.14). Only a short write (a full disk) may leave the rest of a line to a
    /// second `write`.
    static func writeChunk(for descriptor: Int32) -> Int {
        var info = stat()
        guard fstat(descriptor, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return pipeAtomicBytes }
        return Int.max
    }

    /// Writes every buffered line.
    func flush() {
        var start = 0
        while start < buffer.count {
            // Whole lines, at most `maxWriteBytes` bytes (a longer line goes alone).
            var end = buffer.count - start > maxWriteBytes ? start + maxWriteBytes : buffer.count
            if end < buffer.count, let lastNewline = buffer[start ..< end].lastIndex(of: UInt8(ascii: "\n")) {
                end = lastNewline + 1
            }
            let written = buffer[start ..< end].withUnsafeBytes { write(settings.descriptor, $0.baseAddress, $0.count) }
            if written < 0 && errno == EINTR { continue }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // A non-blocking log that is full now: keep the rest for the next flush.
                buffer.removeFirst(start)
                return
            }
            if written <= 0 { break }  // the log is gone (closed, full disk): drop, keep serving
            start += written
        }
        buffer.removeAll(keepingCapacity: true)
    }

    /// Brings `time` to now: the seconds part when the second changed, the milliseconds always.
    private func stampTime() {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let second = Int(now.tv_sec)
        if second != timeSecond {
            timeSecond = second
            var seconds = time_t(second)
            var parts = tm()
            gmtime_r(&seconds, &parts)
            put(Int(parts.tm_year) + 1900, width: 4, at: 0)
            time[4] = UInt8(ascii: "-")
            put(Int(parts.tm_mon) + 1, width: 2, at: 5)
            time[7] = UInt8(ascii: "-")
            put(Int(parts.tm_mday), width: 2, at: 8)
            time[10] = UInt8(ascii: "T")
            put(Int(parts.tm_hour), width: 2, at: 11)
            time[13] = UInt8(ascii: ":")
            put(Int(parts.tm_min), width: 2, at: 14)
            time[16] = UInt8(ascii: ":")
            put(Int(parts.tm_sec), width: 2, at: 17)
            time[19] = UInt8(ascii: ".")
            time[23] = UInt8(ascii: "Z")
        }
        put(Int(now.tv_nsec / 1_000_000), width: 3, at: 20)
    }

    private func put(_ value: Int, width: Int, at offset: Int) {
        var rest = value
        for index in stride(from: offset + width - 1, through: offset, by: -1) {
            time[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
    }
}
