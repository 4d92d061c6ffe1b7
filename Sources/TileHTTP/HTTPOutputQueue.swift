#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// Byte buffers and file regions waiting to be written: runs of buffers go out with as few
/// `writev` calls as the socket allows, file regions with `sendfile`.
struct HTTPOutputQueue {
    /// A byte buffer or a file region. What writing needs of it (its length; for a file its
    /// descriptor and where the region starts) is kept as plain values beside the references,
    /// so a write reads no reference out of the queue: no retain or release per chunk written.
    private struct Chunk {
        /// The bytes (empty for a file region).
        let bytes: [UInt8]
        /// The file region (its owner keeps the descriptor open); nil for bytes.
        let file: HTTPFileRegion?
        let count: Int
        /// The file's descriptor, -1 for bytes.
        let descriptor: Int32
        /// Where the file region starts in its file.
        let fileOffset: Int
    }

    /// Chunks appended; those before `first` are written, and released once all are (or once
    /// `compactionThreshold` are): until then a written file region keeps its file open, and a
    /// written buffer its memory (at most that many, on a connection whose client reads slowly
    /// while it pipelines).
    private var chunks: [Chunk] = []
    /// The first chunk not written whole.
    private var first = 0
    /// Bytes of `chunks[first]` already written.
    private var offset = 0
    /// Bytes not yet written.
    private(set) var byteCount = 0

    /// Most chunks written by one `writev` (IOV_MAX is 1024 on Linux).
    private static let maxChunksPerWrite = 64
    /// Written chunks kept at most before they are released while others wait.
    private static let compactionThreshold = 32

    enum Progress { case done, pending, failed }

    var isEmpty: Bool { first == chunks.count }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(Chunk(bytes: bytes, file: nil, count: bytes.count, descriptor: -1, fileOffset: 0))
        byteCount += bytes.count
    }

    mutating func append(_ file: HTTPFileRegion) {
        guard file.count > 0 else { return }
        chunks.append(Chunk(bytes: [], file: file, count: file.count, descriptor: file.descriptor, fileOffset: file.offset))
        byteCount += file.count
    }

    mutating func append(_ body: HTTPBody) {
        switch body {
        case .bytes(let bytes): append(bytes)
        case .file(let region): append(region)
        }
    }

    mutating func removeAll() {
        chunks.removeAll()
        first = 0
        offset = 0
        byteCount = 0
    }

    /// Writes until everything is out, the socket is full, or it fails.
    mutating func write(to socket: Socket) -> Progress {
        while first < chunks.count {
            let result: Socket.WriteResult
            let descriptor = chunks[first].descriptor
            if descriptor >= 0 {
                result = socket.sendFile(descriptor, offset: chunks[first].fileOffset + offset,
                                         count: chunks[first].count - offset)
                // The file ended early: the promised Content-Length can no longer be kept, and
                // the client must see a cut answer, not another one's start.
                if case .written(0) = result { return .failed }
            } else {
                let count = leadingBuffers()
                result = withIOVectors(count) { socket.write($0, more: first + count < chunks.count) }
            }
            switch result {
            case .written(let n): consume(n)
            case .wouldBlock: return .pending
            case .failed: return .failed
            }
        }
        return .done
    }

    /// How many byte buffers lead the unwritten chunks (up to the first file region, at most
    /// `maxChunksPerWrite`).
    private func leadingBuffers() -> Int {
        var count = 0
        while first + count < chunks.count, count < Self.maxChunksPerWrite, chunks[first + count].descriptor < 0 {
            count += 1
        }
        return count
    }

    /// Counts `written` bytes as sent (what a write reports; tests call it to cut a response
    /// where no socket would).
    mutating func consume(_ written: Int) {
        var remaining = written
        byteCount -= written
        while remaining > 0, first < chunks.count {
            let left = chunks[first].count - offset
            if remaining >= left {
                remaining -= left
                first += 1
                offset = 0
            } else {
                offset += remaining
                remaining = 0
            }
        }
        compact()
    }

    /// Releases the written chunks: all once all are, else once `compactionThreshold` are.
    private mutating func compact() {
        if first == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            first = 0
        } else if first >= Self.compactionThreshold {
            chunks.removeFirst(first)
            first = 0
        }
    }

    /// Calls `body` with iovecs over the `count` byte buffers from `first` (pointers valid only
    /// inside `body`).
    private func withIOVectors<R>(_ count: Int, _ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { buffer in
            func fill(_ index: Int) -> R {
                if index == count { return body(UnsafeBufferPointer(buffer)) }
                let skip = index == 0 ? offset : 0
                return chunks[first + index].bytes.withUnsafeBytes { raw in
                    buffer[index] = iovec(iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                                          iov_len: raw.count - skip)
                    return fill(index + 1)
                }
            }
            return fill(0)
        }
    }
}
