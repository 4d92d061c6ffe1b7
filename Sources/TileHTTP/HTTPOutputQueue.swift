#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Sockets

/// Byte buffers, lent bodies and file regions waiting to be written: runs of buffers and lent
/// bodies go out with as few `writev` calls as the socket allows, file regions with `sendfile`,
/// and an immutable lent body with the buffers before it through the loop's `SplicePipe`, its
/// pages lent to the socket, not copied.
struct HTTPOutputQueue {
    /// A byte buffer, a lent body or a file region. What writing needs of it (its length; for a
    /// file its descriptor and where the region starts; for a lent body its pieces) is kept as
    /// plain values beside the references, so a write reads no reference out of the queue: no
    /// retain or release per chunk written.
    private struct Chunk {
        /// The bytes; for a file region, the bytes its start holds when it is queued when its
        /// file may write them again (a wire answer's head, `append(_:head:)`), else empty.
        let bytes: [UInt8]
        /// The file region (its owner keeps the descriptor open); nil for bytes.
        let file: HTTPFileBody?
        /// The lent body, whose `pieces` are written; nil for bytes and files.
        var lent: (any HTTPLentBody)? = nil
        /// The lent body's pieces (no base address for bytes and files: a write tells a lent
        /// body by them, reading no reference).
        var pieces = UnsafeBufferPointer<iovec>(start: nil, count: 0)
        /// The lent body is immutable: it may go by reference.
        var byReference = false
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
    /// Lent bodies among `chunks` not yet ended (`endLending()`).
    private var lentCount = 0

    /// Most chunks written by one `writev`, and most buffers passed to it (IOV_MAX is 1024 on
    /// Linux; a lent body is a buffer a piece).
    private static let maxChunksPerWrite = 64
    private static let maxBuffersPerWrite = 1024
    /// Written chunks kept at most before they are released while others wait.
    private static let compactionThreshold = 32

    enum Progress { case done, pending, failed }

    var isEmpty: Bool { first == chunks.count }

    mutating func append(_ bytes: [UInt8]) {
        guard !bytes.isEmpty else { return }
        chunks.append(Chunk(bytes: bytes, file: nil, count: bytes.count, descriptor: -1, fileOffset: 0))
        byteCount += bytes.count
    }

    /// Queues `lent`, whose pieces are valid until `endLending()`, which must come before the
    /// loop goes on.
    mutating func append(_ lent: any HTTPLentBody) {
        guard lent.count > 0 else { return }
        chunks.append(Chunk(bytes: [], file: nil, lent: lent, pieces: lent.pieces, byReference: lent.isImmutable,
                            count: lent.count, descriptor: -1, fileOffset: 0))
        byteCount += lent.count
        lentCount += 1
    }

    /// Ends every lent body queued (`HTTPLentBody.end()`), what the socket has not taken of one
    /// copied first and queued in its place. False when a copy failed (the body's file no longer
    /// holds it): what was promised can no longer be sent, and the caller empties the queue
    /// (`removeAll()`; the chunks after the failed one are no longer sendable).
    mutating func endLending() -> Bool {
        guard lentCount > 0 else { return true }
        var copied = true
        for index in chunks.indices {
            guard let lent = chunks[index].lent else { continue }
            if index >= first, copied {
                let sent = index == first ? offset : 0
                if let rest = lent.copy(from: sent) {
                    chunks[index] = Chunk(bytes: rest, file: nil, count: rest.count, descriptor: -1, fileOffset: 0)
                    if index == first { offset = 0 }
                } else {
                    copied = false
                }
            } else {
                chunks[index].lent = nil
                chunks[index].pieces = UnsafeBufferPointer(start: nil, count: 0)
            }
            lent.end()
        }
        lentCount = 0
        compact()
        return copied
    }

    mutating func append(_ file: HTTPFileBody) {
        guard file.count > 0 else { return }
        chunks.append(Chunk(bytes: [], file: file, count: file.count, descriptor: file.descriptor, fileOffset: file.offset))
        byteCount += file.count
    }

    /// Queues `file`, whose first `head.count` bytes are `head` now and may be written again in
    /// the file between two writes (a wire answer's head, with a new Date each second): the
    /// client gets `head` as queued, from the file while it holds it, else from the copy (once a
    /// write has sent part of it, the rest always goes from the copy), never a mix of two.
    mutating func append(_ file: HTTPFileBody, head: [UInt8]) {
        precondition(head.count <= file.count, "a head longer than its region")
        guard file.count > 0 else { return }
        chunks.append(Chunk(bytes: head, file: file, count: file.count, descriptor: file.descriptor, fileOffset: file.offset))
        byteCount += file.count
    }

    mutating func removeAll() {
        if lentCount > 0 { for chunk in chunks { chunk.lent?.end() } }
        lentCount = 0
        chunks.removeAll()
        first = 0
        offset = 0
        byteCount = 0
    }

    /// Writes until everything is out, the socket is full, or it fails; immutable lent bodies
    /// through `pipe` when there is one (asked for only when one is queued).
    mutating func write(to socket: Socket, through pipe: @autoclosure () -> SplicePipe? = nil) -> Progress {
        while first < chunks.count {
            // Chunks a `writev` may take: the buffers before an immutable lent body the pipe
            // cannot take with them go on their own, so it may take the body next.
            var writable = Self.maxChunksPerWrite
            if let lent = leadingReference(), let pipe = pipe() {
                switch send(through: pipe, upTo: lent, to: socket) {
                case .sent(let n):
                    consume(n)
                    continue
                case .partly(let n, let rest):
                    consume(n)
                    keep(rest, for: lent)
                    return .pending
                case .failed: return .failed
                case .declined: if lent > first { writable = lent - first }
                }
            }
            let result: Socket.WriteResult
            let descriptor = chunks[first].descriptor
            if descriptor >= 0 {
                // A wire answer's head written again in its file since this was queued: the
                // head as queued goes from the copy, the body from the file.
                if offset == 0, !chunks[first].bytes.isEmpty, let wire = chunks[first].file?.owner as? HTTPWireAnswer,
                   wire.head != chunks[first].bytes {
                    splitHead()
                    continue
                }
                result = socket.sendFile(descriptor, offset: chunks[first].fileOffset + offset,
                                         count: chunks[first].count - offset)
                // The file ended early: the promised Content-Length can no longer be kept.
                if case .written(0) = result { return .failed }
            } else {
                let (buffers, vectors) = leadingBuffers(upTo: writable)
                result = withIOVectors(chunks: buffers, vectors: vectors) {
                    socket.write($0, more: first + buffers < chunks.count)
                }
            }
            switch result {
            case .written(let n): consume(n)
            case .wouldBlock: return .pending
            case .failed: return .failed
            }
        }
        return .done
    }

    /// The index of an immutable lent body that only byte buffers precede among the unwritten
    /// chunks, if one does and its pieces and theirs fit one write (no scan without a lent body).
    private func leadingReference() -> Int? {
        guard lentCount > 0 else { return nil }
        var index = first
        while index < chunks.count, chunks[index].descriptor < 0, chunks[index].pieces.baseAddress == nil {
            index += 1
        }
        guard index < chunks.count, chunks[index].byReference,
              index - first + chunks[index].pieces.count <= Self.maxBuffersPerWrite else { return nil }
        return index
    }

    /// Sends the chunks from `first` through `lent`, the buffers copied into `pipe` and the lent
    /// body's pages lent to it.
    private func send(through pipe: SplicePipe, upTo lent: Int, to socket: Socket) -> SplicePipe.SendResult {
        let buffers = lent - first
        return withIOVectors(chunks: buffers + 1, vectors: buffers + chunks[lent].pieces.count) { vectors in
            pipe.send(head: UnsafeBufferPointer(rebasing: vectors[..<buffers]),
                      body: UnsafeBufferPointer(rebasing: vectors[buffers...]), to: socket, more: lent + 1 < chunks.count)
        }
    }

    /// Puts `rest`, what a send through the pipe did not get into the socket, in place of the
    /// unwritten chunks through `lent`, which ends: its pages are no longer needed.
    private mutating func keep(_ rest: [UInt8], for lent: Int) {
        let body = chunks[lent].lent
        chunks.replaceSubrange(first ... lent, with: CollectionOfOne(
            Chunk(bytes: rest, file: nil, count: rest.count, descriptor: -1, fileOffset: 0)))
        offset = 0
        body?.end()
        lentCount -= 1
    }

    /// How many chunks of bytes or lent bodies lead the unwritten ones (up to the first file
    /// region, at most `limit`), and how many buffers they take, capped per call (a lent body
    /// that does not fit whole goes at the head of the next call, or in part when it leads this
    /// one).
    private func leadingBuffers(upTo limit: Int) -> (chunks: Int, vectors: Int) {
        var count = 0
        var vectors = 0
        while first + count < chunks.count, count < limit, chunks[first + count].descriptor < 0 {
            let pieces = chunks[first + count].pieces
            let needed = pieces.baseAddress == nil ? 1 : pieces.count
            if vectors + needed > Self.maxBuffersPerWrite {
                if count == 0 { return (1, Self.maxBuffersPerWrite) }
                break
            }
            vectors += needed
            count += 1
        }
        return (count, vectors)
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
        if first < chunks.count, offset > 0, offset < chunks[first].bytes.count, chunks[first].descriptor >= 0 {
            splitHead()
        }
        // Written lent bodies stay until `endLending()` ends them.
        if lentCount == 0 { compact() }
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

    /// Turns the first chunk, a file region whose head is not wholly written, into the rest of
    /// its head as bytes and the region after the head.
    private mutating func splitHead() {
        let chunk = chunks[first]
        let head = chunk.bytes.count
        let rest = Chunk(bytes: [], file: chunk.file, count: chunk.count - head, descriptor: chunk.descriptor,
                         fileOffset: chunk.fileOffset + head)
        let unsent = Array(chunk.bytes[offset...])
        chunks[first] = Chunk(bytes: unsent, file: nil, count: unsent.count, descriptor: -1, fileOffset: 0)
        offset = 0
        if rest.count > 0 { chunks.insert(rest, at: first + 1) }
    }

    /// Calls `body` with iovecs over the `count` chunks from `first`, byte buffers and lent
    /// bodies, at most `vectors` of them (pointers valid only inside `body`).
    private func withIOVectors<R>(chunks count: Int, vectors: Int, _ body: (UnsafeBufferPointer<iovec>) -> R) -> R {
        withUnsafeTemporaryAllocation(of: iovec.self, capacity: vectors) { buffer in
            func fill(_ index: Int, _ filled: Int) -> R {
                if index == count || filled == vectors { return body(UnsafeBufferPointer(rebasing: buffer[..<filled])) }
                var skip = index == 0 ? offset : 0
                let pieces = chunks[first + index].pieces
                if pieces.baseAddress != nil {
                    var filled = filled
                    for piece in pieces where filled < vectors {
                        if skip >= piece.iov_len {
                            skip -= piece.iov_len
                            continue
                        }
                        buffer[filled] = iovec(iov_base: piece.iov_base.map { $0 + skip }, iov_len: piece.iov_len - skip)
                        skip = 0
                        filled += 1
                    }
                    return fill(index + 1, filled)
                }
                return chunks[first + index].bytes.withUnsafeBytes { raw in
                    buffer[filled] = iovec(
                        iov_base: UnsafeMutableRawPointer(mutating: raw.baseAddress! + skip),
                        iov_len: raw.count - skip)
                    return fill(index + 1, filled + 1)
                }
            }
            return fill(0, 0)
        }
    }
}
