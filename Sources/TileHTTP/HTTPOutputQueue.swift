#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// Byte buffers and file regions waiting to be written: runs of buffers go out with as few
/// `writev` calls as the socket allows, file regions with `sendfile`.
struct HTTPOutputQueue {
    private enum Chunk {
        case bytes([UInt8])
        case file(HTTPFileBody)

        var count: Int {
            switch self {
            case .bytes(let bytes): return bytes.count
            case .file(let file): return file.count
            }
        }
    }

    private var chunks: [Chunk] = []
    /// Bytes of `chunks[0]` already written.
    private var offset = 0
    /// Bytes not yet written.
    private(set) var byteCount = 0

    /// Most buffers passed to one `writev` (IOV_MAX is 1024 on Linux).
    private static let maxBuffersPerWrite = 64

    enum Progress { case done, pending, failed }

    var isEmpty: Bool { chunks.isEmpty }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(.bytes(bytes))
        byteCount += bytes.count
    }

    mutating func append(_ file: HTTPFileBody) {
        guard file.count > 0 else { return }
        chunks.append(.file(file))
        byteCount += file.count
    }

    mutating func removeAll() {
        chunks.removeAll()
        offset = 0
        byteCount = 0
    }

    /// Writes until everything is out, the socket is full, or it fails.
    mutating func write(to socket: Socket) -> Progress {
        while let first = chunks.first {
            let result: Socket.WriteResult
            if case .file(let file) = first {
                result = socket.sendFile(file.descriptor, offset: file.offset + offset, count: file.count - offset)
                // The file ended early: the promised Content-Length can no longer be kept.
                if case .written(0) = result { return .failed }
            } else {
                let buffers = leadingBufferCount()
                result = withIOVectors(count: buffers) { socket.write($0, more: buffers < chunks.count) }
            }
            switch result {
            case .written(let n): consume(n)
            case .wouldBlock: return .pending
            case .failed: return .failed
            }
        }
        return .done
    }

    /// How many byte buffers lead the queue (up to the first file region), capped per call.
    private func leadingBufferCount() -> Int {
        var count = 0
        while count < chunks.count, count < Self.maxBuffersPerWrite, case .bytes = chunks[count] { count += 1 }
        return count
    }

    private mutating func consume(_ written: Int) {
        var remaining = written
        byteCount -= written
        while remaining > 0, let first = chunks.first {
            let left = first.count - offset
            if remaining >= left {
                remaining -= left
                chunks.removeFirst()
                offset = 0
            } else {
                offset += remaining
                remaining = 0
            }
        }
    }

    /// Calls `body` with iovecs over the first `count` chunks, all byte buffers (pointers valid
    /// only inside `body`).
    private func withIOVectors<R>(count: Int, _ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            func fill(_ index: Int) -> R {
                if index == count { return body(UnsafeBufferPointer(vectors)) }
                guard case .bytes(let bytes) = chunks[index] else { preconditionFailure("not a byte buffer") }
                return bytes.withUnsafeBytes { raw in
                    let skip = index == 0 ? offset : 0
                    vectors[index] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                        iov_len: raw.count - skip)
                    return fill(index + 1)
                }
            }
            return fill(0)
        }
    }
}
