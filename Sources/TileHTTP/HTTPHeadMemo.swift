#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The request heads an event loop parsed lately, by their bytes, with the answer given to each
/// when the application said it may be given again (`HTTPResponse.reuse`): a client that asks
/// for the same thing again with the same header section (a map client asking for a tile does,
/// as a benchmark does) costs a hash and a compare instead of a parse, a route and a lookup.
/// The same bytes parse to the same request under the same limits, so a remembered head stands
/// for a parse; an answer is given again only while its mark is current and for `answerLifetime`
/// (`pinnedLifetime` when its mark is pinned: its source changes only with a revoke, or rarely).
///
/// `@unchecked Sendable`: one per loop, used only on that loop (its thread or serial queue),
/// where its connections parse and answer. A remembered request that goes to a worker carries
/// its entry along but never touches it there: only the connection, on its loop, does.
final class HTTPHeadMemo: @unchecked Sendable {
    /// One remembered head: its bytes, the request they parse to, and the answer it was given.
    final class Entry: @unchecked Sendable {
        /// The head's bytes, from the request line to the empty line.
        let head: [UInt8]
        /// Their hash (`HTTPHeadMemo.hashes`: the request line's, seeded with the section's).
        let hash: Int
        /// The parse of `head`, without `remembered` (no cycle).
        let request: HTTPRequest
        /// The answer given to it, marked for reuse; nil when none may be given again. Set
        /// only while the entry is in its slot (`HTTPHeadMemo.setAnswer`).
        fileprivate(set) var answer: HTTPResponse?
        /// When `answer` stops being given again (monotonic nanoseconds).
        fileprivate(set) var answerExpires: UInt64 = 0
        /// `answer` laid out as it goes on the wire (`HTTPWireAnswer`), once it was given again
        /// `wireThreshold` times; kept while the answers that follow have the same body.
        fileprivate(set) var wire: HTTPWireAnswer?
        /// Times an answer was given again to this head, up to `wireThreshold` (counted again
        /// from 0 when its wire layout is let go).
        fileprivate var givenAgain = 0
        /// Times the head was found remembered (`lookUp`), up to `Int32.max`.
        fileprivate(set) var found: Int32 = 0
        /// When the head was last asked for (`answer(for:now:)`, monotonic nanoseconds); 0: not yet.
        fileprivate var lastAsked: UInt64 = 0
        /// Whether the ask before the last one came less than `answerLifetime` before it: an
        /// answer kept for the head now would likely be given again before it ends.
        fileprivate(set) var askedLately = false
        /// The arena pages `answer`'s body takes when the memo moved it there from memory
        /// (`answer(for:now:)`, `keep`), else 0: counted with the bodies in memory.
        fileprivate var movedBodyBytes = 0
        /// Times `answer` (this one, not an earlier one) was given again, up to `arenaThreshold`.
        fileprivate var answerGiven = 0

        init(head: [UInt8], hash: Int, request: HTTPRequest) {
            self.head = head
            self.hash = hash
            self.request = request
        }
    }

    /// The header sections of the heads this memo does not know (`HTTPFieldSectionMemo`).
    let fieldSections = HTTPFieldSectionMemo()
    /// The seed of the request line's hash (`hashes(_:)`).
    private let seed: UInt64
    /// Slots, one entry each, in pairs: a head's hash chooses a pair, and the head takes either
    /// slot of it (`pairs`).
    private var slots: [Entry?]
    /// Which slot a head takes, and the heads seen once lately: a head is remembered the second
    /// time it is parsed, so a stream of heads each seen once (a working set walked through)
    /// costs a hash apiece, not an entry made and dropped.
    private var pairs = SlotPairs(slotCount: HTTPHeadMemo.slotCount)
    /// The hash of each slot's entry (0 when it has none), beside the entries: a head that is
    /// not remembered is told without reading its slot's entry, another object, which is cold
    /// in the processor's cache when the heads are many (a working set walked through).
    private var slotHashes: [Int]
    /// Nanoseconds an answer is given again after it was made (0: never).
    let answerLifetime: UInt64
    /// Nanoseconds an answer with a pinned mark (`HTTPAnswerReuse.Mark.isPinned`) is given
    /// again after it was made (0: never).
    let pinnedLifetime: UInt64
    /// Answers that hold a file open of their own (`HTTPFileBody.holdsOpenFile`) kept at most,
    /// and kept now. (A memory hit's body in the cache's shared memory file is not one.)
    let maxFileAnswers: Int
    private(set) var fileAnswers = 0
    /// Bytes of the arena that wire answers may take, at most, and take now.
    let maxWireBytes: Int
    private(set) var wireBytes = 0
    /// Bytes of answers whose body is bytes in memory (`HTTPResponse.body`) kept at most, and
    /// kept now: bodies no cache holds (an archive tile sent past the memory cache, copied for a
    /// head asked for again) stay bounded. Such a body given again often is moved to the body arena when it
    /// can be (`arenaThreshold`), and counted by the pages it takes there. (A cached tile's
    /// body is a part of the cache's memory file.)
    let maxBodyBytes: Int
    private(set) var bodyBytes = 0
    /// `maxBodyBytes` when not given: a few of the largest tiles, hundreds of typical ones.
    static let defaultMaxBodyBytes = 8 << 20
    /// Times an answer is given again before it is laid out as it goes on the wire: the copy of
    /// its body is paid for by the system calls saved well before this many.
    static let wireThreshold = 32
    /// Times an answer whose body is bytes in memory is given again before the body is copied
    /// into the body arena and the answer laid out as it goes on the wire, to go out in one
    /// `sendfile` from then on. Sooner, the body would go out from the arena in two system calls
    /// (the head, then the body) where one `writev` sent it, and an answer given again a few
    /// times would pay for the two copies (and the pages they take and free) without the sends
    /// that make up for them: measured on the Zipf working set, moving at the 4th time cost
    /// more than the copies it saved.
    static let arenaThreshold = 16
    /// Nanoseconds a wire layout is kept after its entry's answer ended without another.
    static let wireGrace: UInt64 = 1_000_000_000
    /// Heads longer than this are not remembered (a header section with large cookies is parsed).
    static let maxHeadBytes = 2048
    /// Slots in the table: a power of two (a hash picks its pair by masking). Two heads that
    /// take turns in one slot would neither be remembered: with one slot a head, 512 slots, about
    /// one in seven of 85 hot heads shared a slot with another, with 2,048 one in twenty-five
    /// (and the counted hot hit moved by a thousand instructions with the per-process seed);
    /// with pairs, three of the 85 must share a pair, about one start in twenty. At most a few
    /// MB a loop (an entry is its head, up to 2 KiB, and its parse).
    static let slotCount = 2048

    init(
        answerLifetime: UInt64, pinnedLifetime: UInt64? = nil, fileAnswers: Int, wireBytes: Int = 0,
        bodyBytes: Int = defaultMaxBodyBytes
    ) {
        seed = UInt64.random(in: 0 ... .max)
        self.answerLifetime = answerLifetime
        self.pinnedLifetime = pinnedLifetime ?? answerLifetime
        maxFileAnswers = fileAnswers
        maxWireBytes = wireBytes
        maxBodyBytes = bodyBytes
        slots = Array(repeating: nil, count: Self.slotCount)
        slotHashes = Array(repeating: 0, count: Self.slotCount)
    }

    /// What the memo knows of a head.
    enum Lookup {
        /// Remembered: the request it parses to, with its entry attached.
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
        let first = Self.pair(hash)
        for slot in first ... first + 1 where slotHashes[slot] == hash {
            guard let entry = slots[slot], entry.head.count == head.count,
                  entry.head.withUnsafeBytes({ memcmp($0.baseAddress!, head.baseAddress!, head.count) == 0 })
            else { continue }
            pairs.found(slot)
            if entry.found < .max { entry.found += 1 }
            var request = entry.request
            request.remembered = entry
            return .remembered(request)
        }
        return .unknown(hash: hash, sectionHash: sectionHash)
    }

    /// Remembers that `head` (of hash `hash`, from `lookUp`) parses to `request` (a head
    /// without a body) if it was parsed just before (`pairs`), and returns the request with its
    /// entry attached; `request` unchanged when the head is seen for the first time.
    func remember(_ head: UnsafeRawBufferPointer, hash: Int, as request: HTTPRequest) -> HTTPRequest {
        guard let slot = pairs.slotToFill(for: hash, isTaken: { slots[$0] != nil }) else { return request }
        let entry = Entry(head: Array(head), hash: hash, request: request)
        if let replaced = slots[slot] {
            setAnswer(nil, of: replaced)
            dropWire(of: replaced)
        }
        slots[slot] = entry
        slotHashes[slot] = hash
        var remembered = request
        remembered.remembered = entry
        return remembered
    }

    /// The answer to give again to `entry`'s request at `now`, if there is one still good; notes
    /// the ask (`Entry.askedLately`).
    /// (An answer past its time lets its wire layout stay: the next one is likely the same. One
    /// whose body the memo moved to the arena stays too, not given, until the answer made next
    /// replaces it or the sweep lets it go: that answer likely names the same body, `keep`.)
    func answer(for entry: HTTPHeadMemo.Entry, now: UInt64) -> HTTPResponse? {
        entry.askedLately = entry.lastAsked != 0 && now &- entry.lastAsked < answerLifetime
        entry.lastAsked = now
        guard var answer = entry.answer else { return nil }
        guard Self.isGiven(answer, of: entry, at: now) else {
            if !Self.keepsMovedBody(answer, of: entry) { setAnswer(nil, of: entry) }
            return nil
        }
        if entry.answerGiven < Self.arenaThreshold {
            entry.answerGiven += 1
            if entry.answerGiven == Self.arenaThreshold, let moved = moveBody(of: entry) {
                answer = moved
                if entry.wire == nil { return layOutOnTheWire(answer, of: entry) }
            }
        }
        if entry.givenAgain < Self.wireThreshold {
            entry.givenAgain += 1
            if entry.givenAgain == Self.wireThreshold { return layOutOnTheWire(answer, of: entry) }
        }
        return answer
    }

    /// `answer` with a wire layout made for it, when the bound allows and it can have one.
    private func layOutOnTheWire(_ answer: HTTPResponse, of entry: Entry) -> HTTPResponse {
        guard entry.wire == nil, let wire = HTTPWireAnswer(answer), wireBytes + wire.memoryBytes <= maxWireBytes
        else { return answer }
        entry.wire = wire
        wireBytes += wire.memoryBytes
        var laidOut = answer
        laidOut.wire = wire
        entry.answer = laidOut
        return laidOut
    }

    /// Lets go of `entry`'s wire layout.
    private func dropWire(of entry: Entry) {
        entry.givenAgain = 0
        guard let wire = entry.wire else { return }
        wireBytes -= wire.memoryBytes
        entry.wire = nil
    }

    /// Keeps `answer` for `entry`'s request when the application marked it for reuse, `entry`
    /// is still in its slot (a newer head may have taken it since the parse), and, for an
    /// answer that holds a file open, fewer than `maxFileAnswers` such are kept; for one whose
    /// body is bytes, while those kept stay within `maxBodyBytes`. Such a body goes to the body
    /// arena, and the answer on the wire, once the answer was given again `arenaThreshold` times
    /// (`answer(for:now:)`); an answer whose mark names the body of the answer it replaces,
    /// kept there, takes that body at once (`withBody`).
    func keep(_ answer: HTTPResponse, for entry: HTTPHeadMemo.Entry, now: UInt64) {
        let first = Self.pair(entry.hash)
        guard let mark = answer.reuse, answer.lent == nil, slots[first] === entry || slots[first + 1] === entry else { return }
        let lifetime = mark.isPinned ? pinnedLifetime : answerLifetime
        guard lifetime > 0 else { return }
        if Self.holdsOpenFile(answer) && !Self.holdsOpenFile(entry.answer) && fileAnswers >= maxFileAnswers { return }
        let inMemory = Self.bodyBytes(answer)
        let moved = inMemory > 0 ? Self.withBody(of: entry, answer) : nil
        if bodyBytes - held(by: entry) + (moved?.span ?? inMemory) > maxBodyBytes { return }
        var answer = moved?.answer ?? answer
        if let wire = entry.wire {
            if wire.matches(answer) { answer.wire = wire } else { dropWire(of: entry) }
        }
        setAnswer(answer, of: entry, moved: moved?.span ?? 0)
        entry.answerExpires = now + lifetime
    }

    /// `entry`'s answer with its body moved into the body arena, when it is bytes in memory and
    /// the arena and the budget take it (counted then by the pages it takes); nil when not.
    private func moveBody(of entry: Entry) -> HTTPResponse? {
        guard let answer = entry.answer, entry.movedBodyBytes == 0, Self.bodyBytes(answer) > 0,
              bodyBytes - held(by: entry) + HTTPBodyArena.span(of: answer.body.count) <= maxBodyBytes,
              let moved = Self.movedToArena(answer)
        else { return nil }
        setAnswer(moved.answer, of: entry, moved: moved.span)
        return moved.answer
    }

    /// `answer` with the arena body the memo moved `entry`'s answer's body to, when both marks
    /// name the same body (`HTTPAnswerReuse.Mark.body`: the same bytes, so kept once, and a wire
    /// layout of the answer stays good), and the pages it takes; nil when they do not.
    private static func withBody(of entry: Entry, _ answer: HTTPResponse) -> (answer: HTTPResponse, span: Int)? {
        guard entry.movedBodyBytes > 0, let kept = entry.answer?.file, kept.count == answer.body.count,
              let body = answer.reuse?.body, entry.answer?.reuse?.body === body
        else { return nil }
        return (sent(answer, from: kept), entry.movedBodyBytes)
    }

    /// `answer` with its body bytes copied into the body arena, to be sent from there with
    /// `sendfile` (its `body` then empty), and the pages they take there; nil when the arena
    /// cannot take them (none here, or a body too short for a page of its own).
    private static func movedToArena(_ answer: HTTPResponse) -> (answer: HTTPResponse, span: Int)? {
        guard answer.file == nil, let stored = HTTPBodyArena.store(answer.body) else { return nil }
        return (sent(answer, from: stored.fileBody), stored.span)
    }

    /// `answer` sending `file` (its bytes in the arena) instead of its `body`, then empty.
    private static func sent(_ answer: HTTPResponse, from file: HTTPFileBody) -> HTTPResponse {
        var moved = answer
        moved.body = []
        moved.file = file
        return moved
    }

    /// Whether `entry`'s `answer`, past its time, stays (not given): its body the memo moved to
    /// the arena, and its mark current, so the answer made next likely names that body (`keep`).
    private static func keepsMovedBody(_ answer: HTTPResponse, of entry: Entry) -> Bool {
        entry.movedBodyBytes > 0 && answer.reuse?.isCurrent == true
    }

    /// Lets go of answers past their time or revoked (their bodies: a cached tile's pages, a
    /// file's descriptor), so an answer no request asks for again is not held for long.
    func dropExpiredAnswers(now: UInt64) {
        for case let entry? in slots {
            // One whose moved body stays (`keepsMovedBody`) stays as long as a wire layout would.
            if let answer = entry.answer, !Self.isGiven(answer, of: entry, at: now),
               !Self.keepsMovedBody(answer, of: entry) || now >= entry.answerExpires &+ Self.wireGrace {
                setAnswer(nil, of: entry)
            }
            // A wire layout outlives its answer a little: the answer made at the next request is
            // most likely the same (answers end every lifetime, between two requests).
            if entry.answer == nil, now >= entry.answerExpires &+ Self.wireGrace { dropWire(of: entry) }
        }
    }

    /// Whether `entry`'s `answer` is still given again at `now`: within its time, not revoked.
    private static func isGiven(_ answer: HTTPResponse, of entry: Entry, at now: UInt64) -> Bool {
        now < entry.answerExpires && answer.reuse?.isCurrent == true
    }

    private static func holdsOpenFile(_ answer: HTTPResponse?) -> Bool { answer?.file?.holdsOpenFile == true }

    /// The first of the two slots a head of hash `hash` may take (the second follows it).
    static func pair(_ hash: Int) -> Int { SlotPairs.pair(hash, slotCount: slotCount) }

    /// The bytes of `answer`'s body held in memory (0 for a file's or none).
    private static func bodyBytes(_ answer: HTTPResponse?) -> Int { answer?.body.count ?? 0 }

    /// Bytes `entry`'s answer holds for the memo: its body in memory, or the arena pages the
    /// memo moved it to.
    private func held(by entry: Entry) -> Int { Self.bodyBytes(entry.answer) + entry.movedBodyBytes }

    /// Sets `entry`'s answer, counting those that hold a file open and the bytes of bodies kept
    /// (`moved`: the arena pages of a body the memo moved there).
    private func setAnswer(_ answer: HTTPResponse?, of entry: Entry, moved: Int = 0) {
        if Self.holdsOpenFile(entry.answer) { fileAnswers -= 1 }
        if Self.holdsOpenFile(answer) { fileAnswers += 1 }
        bodyBytes += Self.bodyBytes(answer) + moved - held(by: entry)
        entry.answer = answer
        entry.movedBodyBytes = moved
        entry.answerGiven = 0
    }

    /// The hash of `head` and that of its header section (the bytes after its first LF, as
    /// `HTTPHeadParser` hands them to `fieldSections`): the section is hashed once, for both
    /// memos, and the request line with this memo's seed and the section's hash. XXH64: about
    /// two thirds of the instructions of the standard library's SipHash for a short head (180
    /// against 276 on the hot-tile benchmark). Not a keyed hash, and it need not be: a pair of
    /// slots holds two entries, so heads made to share one only miss the memo (as any 2,049
    /// distinct heads do anyway), and no lookup takes longer.
    private func hashes(_ head: UnsafeRawBufferPointer) -> (head: Int, section: Int) {
        let lineEnd = head.firstLineFeed().map { $0 + 1 } ?? head.count
        let section = fieldSections.hash(UnsafeRawBufferPointer(rebasing: head[lineEnd...]))
        let line = ContentHash.xxh64(UnsafeRawBufferPointer(rebasing: head[..<lineEnd]),
                                     seed: seed &+ UInt64(truncatingIfNeeded: section))
        return (Int(truncatingIfNeeded: line), section)
    }
}
