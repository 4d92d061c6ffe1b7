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
/// `@unchecked Sendable`: the buffer, the time and `flushPending` are touched only on `loop`
/// (and by the loop's stop completion, after the loop has run its last task).
final class HTTPAccessLog: @unchecked Sendable {
    let settings: HTTPAccessLogSettings
    private let loop: any IOEventLoop
    /// Lines waiting to be written, `count` bytes of `storage`: each line is formatted straight
    /// into it (no line buffer, no copy).
    private var storage: UnsafeMutableBufferPointer<UInt8>
    private var count = 0
    private var flushPending = false
    /// The stamp of `timeMillisecond` (milliseconds since the epoch; none yet: `Int64.min`),
    /// whose second's text is rebuilt when `timeMillisecond / 1000` changes.
    private var time = HTTPAccessLogTime(second: [UInt8](repeating: UInt8(ascii: "0"), count: 19), millis: 0)
    private var timeMillisecond = Int64.min

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
        storage = .allocate(capacity: max(0, settings.bufferBytes) + 4096)
    }

    deinit { storage.deallocate() }

    /// Appends the line for `entry`, whose request ended now; writes the buffer once it is full.
    /// Call on the loop.
    func record(_ entry: HTTPAccessLogEntry) {
        // A log that stays full (a non-blocking pipe nobody reads) costs at most this much memory.
        guard count < Self.maxHeldBytes else { return }
        stampTime()
        let worst = HTTPAccessLogLine.worstCase(entry)
        if count + worst > storage.count { grow(to: count + worst) }
        var line = ByteWriter(UnsafeMutableBufferPointer(start: storage.baseAddress! + count, count: storage.count - count))
        HTTPAccessLogLine.write(entry, time: time, format: settings.format, to: &line)
        count += line.count
        if count >= settings.bufferBytes { flush() }
        scheduleFlush()
    }

    /// Room for a line longer than the buffer's slack, or for lines held while the log is full.
    private func grow(to needed: Int) {
        let larger = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(needed, 2 * storage.count))
        larger.baseAddress!.initialize(from: storage.baseAddress!, count: count)
        storage.deallocate()
        storage = larger
    }

    /// Most bytes held while the log cannot take them.
    static let maxHeldBytes = 4 << 20

    /// Writes what is buffered after `flushInterval`, and again later if the log was full.
    private func scheduleFlush() {
        guard !flushPending, count > 0 else { return }
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
        let base = storage.baseAddress!
        var start = 0
        while start < count {
            // Whole lines, at most `maxWriteBytes` bytes (a longer line goes alone).
            var end = count - start > maxWriteBytes ? start + maxWriteBytes : count
            if end < count, let lastNewline = storage[start ..< end].lastIndex(of: UInt8(ascii: "\n")) {
                end = lastNewline + 1
            }
            let written = write(settings.descriptor, base + start, end - start)
            if written < 0 && errno == EINTR { continue }
            if written < 0 && (errno == EAGAIN || errno == EWOULDBLOCK) {
                // A non-blocking log that is full now: keep the rest for the next flush.
                memmove(base, base + start, count - start)
                count -= start
                return
            }
            if written <= 0 { break }  // the log is gone (closed, full disk): drop, keep serving
            start += written
        }
        count = 0
    }

    /// Brings `time` to the wall clock's millisecond: the second's text when the second changed,
    /// the milliseconds when they changed. The clock is read for each line (a vDSO call, no
    /// system call), so a step of it shows on the next line.
    private func stampTime() {
        var clock = timespec()
        clock_gettime(CLOCK_REALTIME, &clock)
        let millisecond = Int64(clock.tv_sec) * 1000 + Int64(clock.tv_nsec) / 1_000_000
        if millisecond == timeMillisecond { return }
        let second = Int64(clock.tv_sec)
        if second != timeMillisecond / 1000 { time.set(second: Self.text(ofSecond: second)) }
        timeMillisecond = millisecond
        time.set(millis: Int(millisecond % 1000))
    }

    /// "YYYY-MM-DDTHH:MM:SS" (UTC) of a second since the epoch.
    static func text(ofSecond second: Int64) -> [UInt8] {
        var seconds = time_t(second)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        var text = [UInt8](repeating: 0, count: 19)
        func put(_ value: Int32, width: Int, at offset: Int) {
            var rest = Int(value)
            for index in stride(from: offset + width - 1, through: offset, by: -1) {
                text[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(parts.tm_year + 1900, width: 4, at: 0)
        put(parts.tm_mon + 1, width: 2, at: 5)
        put(parts.tm_mday, width: 2, at: 8)
        put(parts.tm_hour, width: 2, at: 11)
        put(parts.tm_min, width: 2, at: 14)
        put(parts.tm_sec, width: 2, at: 17)
        for (index, separator) in [(4, "-"), (7, "-"), (10, "T"), (13, ":"), (16, ":")] as [(Int, Unicode.Scalar)] {
            text[index] = UInt8(ascii: separator)
        }
        return text
    }
}
