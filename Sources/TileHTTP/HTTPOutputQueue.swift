#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// Byte buffers waiting to be written, sent with as few `writev` calls as the socket allows.
struct HTTPOutputQueue {
    private var chunks: [[UInt8]] = []
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
        chunks.append(bytes)
        byteCount += bytes.count
    }

    mutating func removeAll() {
        chunks.removeAll()
        offset = 0
        byteCount = 0
    }

    /// Writes until everything is out, the socket is full, or it fails.
    mutating func write(to socket: Socket) -> Progress {
        while !chunks.isEmpty {
            let result = withIOVectors { socket.write($0) }
            switch result {
            case .written(let n): consume(n)
            case .wouldBlock: return .pending
            case .failed: return .failed
            }
        }
        return .done
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

    /// Calls `body` with iovecs over the pending chunks (pointers valid only inside `body`).
    private func withIOVectors<R>(_ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        let count = min(chunks.count, Self.maxBuffersPerWrite)
        return withUnsafeTemporaryAllocation(of: iovec.self, capacity: count) { vectors in
            func fill(_ index: Int) -> R {
                if index == count { return body(UnsafeBufferPointer(vectors)) }
                return chunks[index].withUnsafeBytes { bytes in
                    let skip = index == 0 ? offset : 0
                    vectors[index] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress! + skip),
                        iov_len: bytes.count - skip)
                    return fill(index + 1)
                }
            }
            return fill(0)
        }
    }
}
