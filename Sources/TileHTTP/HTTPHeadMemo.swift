#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Hashing

/// The request heads an event loop parsed lately, by their bytes, with the request each parses
/// to: a client that sends the same head again (a map client asking for a tile again, a load
/// balancer's probe) costs a hash and a compare instead of a parse. The same bytes parse to the
/// same request under the same limits, so a remembered head stands for its parse, and for
/// nothing else: the application answers every request.
///
/// `@unchecked Sendable`: one per loop, used only on that loop (its thread or serial queue),
/// where its connections parse.
final class HTTPHeadMemo: @unchecked Sendable {
    /// One remembered head: its bytes and the request they parse to.
    private struct Entry {
        let head: [UInt8]
        let request: HTTPRequest
    }

    /// The header sections of the heads this memo does not know (`HTTPFieldSectionMemo`).
    let fieldSections = HTTPFieldSectionMemo()
    /// The seed of the request line's hash (`hashes(_:)`).
    private let seed = UInt64.random(in: 0 ... .max)
    /// Slots, one entry each, in pairs: a head's hash chooses a pair, and the head takes either
    /// slot of it (`pairs`).
    private var slots: [Entry?]
    /// Which slot a head takes, and the heads seen once lately: a head is remembered the second
    /// time it is parsed, so a stream of heads each seen once (a working set walked through)
    /// costs a hash apiece, not an entry made and dropped.
    private var pairs = SlotPairs(slotCount: HTTPHeadMemo.slotCount)
    /// The hash of each slot's entry (0 when it has none), beside the entries: a head that is
    /// not remembered is told without reading its slot's entry.
    private var slotHashes: [Int]

    /// Heads longer than this are not remembered (a header section with large cookies is parsed).
    static let maxHeadBytes = 2048
    /// Slots in the table, a power of two: at most a few MB a loop (an entry is its head, up to
    /// 2 KiB, and its parse).
    static let slotCount = 2048

    init() {
        slots = Array(repeating: nil, count: Self.slotCount)
        slotHashes = Array(repeating: 0, count: Self.slotCount)
    }

    /// What the memo knows of a head.
    enum Lookup {
        /// Remembered: the request it parses to.
        case remembered(HTTPRequest)
        /// Not remembered: its hash, for `remember(_:hash:as:)`, and its header section's, for
        /// `fieldSections`.
        case unknown(hash: Int, sectionHash: Int)
        /// Too long to be remembered.
        case tooLong
    }

    /// What the memo knows of `head`.
    func lookUp(_ head: UnsafeRawBufferPointer) -> Lookup {
        guard head.count <= Self.maxHeadBytes else { return .tooLong }
        let (hash, sectionHash) = hashes(head)
        let first = SlotPairs.pair(hash, slotCount: Self.slotCount)
        for slot in first ... first + 1 where slotHashes[slot] == hash {
            guard let entry = slots[slot], entry.head.count == head.count,
                  entry.head.withUnsafeBytes({ memcmp($0.baseAddress!, head.baseAddress!, head.count) == 0 })
            else { continue }
            pairs.found(slot)
            return .remembered(entry.request)
        }
        return .unknown(hash: hash, sectionHash: sectionHash)
    }

    /// Remembers that `head` (of hash `hash`, from `lookUp`) parses to `request` (a head without
    /// a body), if it was parsed just before (`pairs`).
    func remember(_ head: UnsafeRawBufferPointer, hash: Int, as request: HTTPRequest) {
        guard let slot = pairs.slotToFill(for: hash, isTaken: { slots[$0] != nil }) else { return }
        slots[slot] = Entry(head: Array(head), request: request)
        slotHashes[slot] = hash
    }

    /// The hash of `head` and that of its header section (the bytes after its first LF, as
    /// `HTTPHeadParser` hands them to `fieldSections`): the section is hashed once, for both
    /// memos, and the request line with this memo's seed and the section's hash. XXH64: about
    /// two thirds of the instructions of the standard library's SipHash for a short head. Not a
    /// keyed hash, and it need not be: a pair of slots holds two entries, so heads made to share
    /// one only miss the memo, and no lookup takes longer.
    private func hashes(_ head: UnsafeRawBufferPointer) -> (head: Int, section: Int) {
        let lineEnd = head.firstLineFeed().map { $0 + 1 } ?? head.count
        let section = fieldSections.hash(UnsafeRawBufferPointer(rebasing: head[lineEnd...]))
        let line = ContentHash.xxh64(UnsafeRawBufferPointer(rebasing: head[..<lineEnd]),
                                     seed: seed &+ UInt64(truncatingIfNeeded: section))
        return (Int(truncatingIfNeeded: line), section)
    }
}
